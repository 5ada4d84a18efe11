import AlbumsCommands
import AlbumsImporting
import AlbumsServeCommand
import AlbumsStorage

// `albums` with the server and the object storage client linked: `albums
// serve`, and any command that meets a bucket, hand their command line to
// this program, which runs it like `albums`, reaching buckets and serving.
OriginalKeepers.installBucketKeepers(BucketKeeper.fromEnvironment)
AlbumsCommand.runProgram(servingWith: ServeCommandHost.self)
