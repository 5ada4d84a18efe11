import AlbumsCommands
import AlbumsServeCommand

// `albums` with the server linked: `albums serve` hands its command line to
// this program, which runs it like `albums` and serves.
AlbumsCommand.runProgram(servingWith: ServeCommandHost.self)
