import AlbumsCommands

AlbumsCommand.runProgram()
