#!/usr/bin/env node
// A meeple bot speaking protocol version 2 (docs/bot-protocol.md): it says hello, takes one
// option (`pick`: first or last of the moves offered), reports what it does as info lines,
// chooses again when told its answer was refused, and exits at the end of the game.
// Try it: meeple autoplay GAME --bot cmd:docs/bots/first_bot.js:pick=last --to-end
"use strict";
const readline = require("readline");

let pick = "first";
const send = (message) => process.stdout.write(JSON.stringify(message) + "\n");

readline.createInterface({ input: process.stdin }).on("line", (line) => {
  const message = JSON.parse(line);
  if (message.type === "hello") {
    if ((message.protocols || []).includes(2)) {
      send({ type: "hello", protocol: 2, name: "first", author: "meeple", version: "1.0",
             options: [{ name: "pick", type: "string", default: "first" }] });
      pick = (message.options || {}).pick || pick;
    }
  } else if (message.type === "move") {
    const index = pick === "last" ? message.moves.length - 1 : 0;
    send({ type: "info", text: `${message.moves.length} moves, ${message.clock.move_ms} ms` });
    send({ move: index });
  } else if (message.type === "error") {
    send({ move: message.legal[0] });
  } else if (message.type === "over") {
    process.exit(0);
  }
});
