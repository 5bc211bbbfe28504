"""Bots from Python (meeple.cli.bots.api): a bot program and an engine bot play a game
through one interface. Run it from the project's folder: python docs/bots/api_example.py"""

from meeple.cli.bots.api import Bot
from meeple.engine import Game

game = Game.new(["red", "black"], "classic", seed="7")
with Bot.open("cmd:docs/bots/first_bot.js", move_time=5) as program, \
        Bot.open("greedy") as greedy:
    program.configure(pick="last")            # an option its hello declares
    seats = {"red": program, "black": greedy}
    while not game.over:
        bot = seats[game.player]
        game.push(bot.play(game))             # the bot's move, a Command
    program.finish(game)                      # a version 2 program is told the result
    print("red:", program.id, "said:", [info.text for info in program.info])
print(game.scores, "winners:", game.winners)  # leaving `with` stopped the program
game.save("api-bots.jsonl")
