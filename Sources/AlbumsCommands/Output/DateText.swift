import AlbumsPersistence

extension PhotoContent {
    /// The capture date as a table's column shows it, in one form for every
    /// photo: the clock time the camera recorded, to the minute (`2026-07-14
    /// 09:12`), or as much of it as is known (`1975`); nil for none. The
    /// offset and the seconds are in `show` and in `--json`.
    var capturedColumnText: String? {
        capturedAt.map { String($0.text.prefix(16)).replacingOccurrences(of: "T", with: " ") }
    }
}
