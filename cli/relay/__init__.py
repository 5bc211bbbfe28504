"""The relay (docs/guide/relay.md): a server that stores remote games' signed lines, verifies
them before it stores them, signs a receipt for each, and streams them to players and
spectators; it cannot forge, reorder or bias anything."""
