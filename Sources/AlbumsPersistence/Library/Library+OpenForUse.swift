import Foundation

/// What opening a library for use did beyond opening the file: what
/// ``Library/openForUse(at:options:)`` returns.
public struct LibraryOpening: Sendable {
    /// Notes an upgrade left for a person (an album renamed to a valid name,
    /// say), each once: show them.
    public var upgradeNotes: [String] = []
    /// The photos whose facts were read again, if any needed it.
    public var factsRefresh = PhotoFactsRefresh()
}

extension Library {
    /// Opens the library at `path` as albums itself does: the file opened
    /// (created, or upgraded with a backup, as `options` say), then what an
    /// upgrade leaves to do before the library is used. Photos an older
    /// albums imported get their facts read again from their sources, and the
    /// upgrade's notes for a person are taken, once, to be shown. A library
    /// opened read-only is returned as it is: both wait for a writable open.
    ///
    /// The CLI opens every library this way, `albums serve` included; an app
    /// embedding albums should too.
    ///
    /// ```swift
    /// let (library, opening) = try Library.openForUse(at: path)
    /// for note in opening.upgradeNotes { showNotice(note) }
    /// ```
    public static func openForUse(at path: String, options: Options = Options()) throws -> (library: Library, opening: LibraryOpening) {
        let library = try Library.open(at: path, options: options)
        var opening = LibraryOpening()
        guard !library.isReadOnly else { return (library, opening) }
        // Library.open read whether either waits, in the statement it reads anyway.
        if library.openingState.hasOutdatedPhotoFacts { opening.factsRefresh = try library.refreshOutdatedPhotoFacts() }
        if library.openingState.hasUpgradeNotes { opening.upgradeNotes = try library.takeUpgradeNotes() }
        return (library, opening)
    }
}
