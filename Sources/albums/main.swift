import AlbumsCommands

await AlbumsCommand.runProgram()
