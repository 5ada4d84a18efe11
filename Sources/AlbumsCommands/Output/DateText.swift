import AlbumsImageFacts

extension CaptureDate {
    /// The date as a table's column shows it, in one form for every photo:
    /// the clock time the camera recorded, to the minute (`2026-07-14
    /// 09:12`), or as much of it as is known (`1975`). The offset and the
    /// seconds are in `show` and in `--json`.
    var columnText: String {
        String(text.prefix(16)).replacingOccurrences(of: "T", with: " ")
    }
}
