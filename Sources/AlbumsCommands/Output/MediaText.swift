import AlbumsPersistence

extension PhotoContent {
    /// The format as a table's column names it: a photo's (`jpeg`, `heic`)
    /// from its media type, a video's by the name its files go by (`mov`,
    /// `mkv`, `3gp`), as people know them.
    var formatColumnText: String {
        switch mediaType {
        case "video/quicktime": "mov"
        case "video/x-matroska": "mkv"
        case "video/x-msvideo": "avi"
        case "video/3gpp", "video/3gpp2": "3gp"
        default: String(mediaType.split(separator: "/", maxSplits: 1).last ?? "?")
        }
    }

    /// A video's length as a player shows it (`0:07`, `12:30`, `1:02:03`);
    /// nil for a still or a video whose length is not known.
    var durationText: String? {
        guard let duration, duration.isFinite, duration >= 0, duration < 1e9 else { return nil }
        let seconds = Int(duration.rounded())
        let (hours, minutes, rest) = (seconds / 3600, seconds / 60 % 60, seconds % 60)
        let twoDigits = { (value: Int) in value < 10 ? "0\(value)" : "\(value)" }
        return hours > 0 ? "\(hours):\(twoDigits(minutes)):\(twoDigits(rest))" : "\(minutes):\(twoDigits(rest))"
    }
}
