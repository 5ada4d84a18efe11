import AlbumsCommands

AlbumsCommand.main()
