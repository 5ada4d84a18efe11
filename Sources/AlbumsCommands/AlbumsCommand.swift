import ArgumentParser

/// The `albums` command: every subcommand hangs off this root.
public struct AlbumsCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "albums",
        abstract: "Arrange photos into ordered albums kept in one SQLite file.",
        discussion: """
            The library file is --library PATH, else $ALBUMS_LIBRARY, else
            $XDG_DATA_HOME/albums/library.albums (~/.local/share/albums/library.albums).
            """,
        subcommands: [InitCommand.self, AlbumCommand.self, ListCommand.self]
    )

    // Declared here too so that `albums --library PATH COMMAND` parses;
    // each subcommand reads the same options through its own group.
    @OptionGroup var options: LibraryOptions

    public init() {}
}
