import Foundation

/// How digiKam shows an album's photos: the sort its settings keep
/// (`digikamrc`, group `[Album Settings]`: `Image Sort Order`, the sort
/// role's number in `ItemSortSettings::SortRole`, and `Image Sorting`, 0
/// ascending or 1 descending), applied to what its database knows of each photo.
struct DigikamItemSort: Hashable, Sendable {
    /// What digiKam compares first; ties go by file name, naturally, as digiKam breaks them.
    enum Role: Hashable, Sendable {
        case fileName
        case creationDate
        case modificationDate
        case fileSize
        case rating
        case imageSize
        case aspectRatio
        /// The manual order (`Images.manualOrder`, unset read as 0), then the name.
        case manualOrderThenName
        /// The manual order, then the creation date.
        case manualOrderThenDate

        /// The role digiKam 7 and 8 number `value` (file name, path, creation and
        /// modification date, file size, rating, image size, aspect ratio,
        /// faces, similarity, manual order and name, manual order and date); a
        /// sort albums cannot follow (faces, similarity) is by name.
        init?(digikamValue value: Int) {
            switch value {
            case 0, 1, 8, 9: self = .fileName  // within one album, a path sorts as its name
            case 2: self = .creationDate
            case 3: self = .modificationDate
            case 4: self = .fileSize
            case 5: self = .rating
            case 6: self = .imageSize
            case 7: self = .aspectRatio
            case 10: self = .manualOrderThenName
            case 11: self = .manualOrderThenDate
            default: return nil
            }
        }
    }

    var role: Role
    var descending = false
    /// Whether a photo missing the value (no date, no size) comes last, as
    /// albums orders by date; digiKam reads it as the least value (an invalid
    /// date, a rating of none), so first when ascending.
    var unknownLast = false

    /// The manual order, then the name: what digiKam shows of a catalog whose
    /// owner arranged albums by hand, and, where nobody did, the name order
    /// digiKam shows by default.
    static let manual = DigikamItemSort(role: .manualOrderThenName)

    /// A photo as the sort reads it.
    struct Photo {
        let name: String
        /// `Images.manualOrder`, unset read as 0.
        let manualOrder: Int64
        /// `ImageInformation.creationDate`, ISO 8601 text.
        let created: String?
        /// `Images.modificationDate`.
        let modified: String?
        let fileSize: Int64?
        let rating: Int64?
        let width: Int64?
        let height: Int64?
    }

    /// `photos` in this sort's order.
    func ordered(_ photos: [Photo]) -> [Photo] {
        photos.sorted { a, b in
            let order = compare(a, b)
            let byName = order != .orderedSame ? order : a.name.localizedStandardCompare(b.name)
            return descending ? byName == .orderedDescending : byName == .orderedAscending
        }
    }

    private func compare(_ a: Photo, _ b: Photo) -> ComparisonResult {
        func values<T: Comparable>(_ x: T?, _ y: T?) -> ComparisonResult {
            switch (x, y) {
            case let (x?, y?): x < y ? .orderedAscending : y < x ? .orderedDescending : .orderedSame
            case (.some, nil): unknownLast ? .orderedAscending : .orderedDescending
            case (nil, .some): unknownLast ? .orderedDescending : .orderedAscending
            case (nil, nil): .orderedSame
            }
        }
        switch role {
        case .fileName: return .orderedSame
        case .creationDate: return values(a.created, b.created)
        case .modificationDate: return values(a.modified, b.modified)
        case .fileSize: return values(a.fileSize, b.fileSize)
        case .rating: return values(a.rating, b.rating)
        case .imageSize: return values(a.width.flatMap { w in a.height.map { w * $0 } }, b.width.flatMap { w in b.height.map { w * $0 } })
        case .aspectRatio:
            func ratio(_ photo: Photo) -> Double? {
                guard let width = photo.width, let height = photo.height, height > 0 else { return nil }
                return Double(width) / Double(height)
            }
            return values(ratio(a), ratio(b))
        case .manualOrderThenName: return values(a.manualOrder, b.manualOrder)
        case .manualOrderThenDate:
            let manual = values(a.manualOrder, b.manualOrder)
            return manual != .orderedSame ? manual : values(a.created, b.created)
        }
    }

    /// The sort kept in the `digikamrc` beside the database at `database`;
    /// nil where there is none, or it names no sort albums can follow.
    static func configured(besideDatabase database: String) -> DigikamItemSort? {
        let path = ((database as NSString).deletingLastPathComponent as NSString).appendingPathComponent("digikamrc")
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        return configured(in: text)
    }

    /// The sort a `digikamrc`'s text keeps.
    static func configured(in text: String) -> DigikamItemSort? {
        var group = ""
        var role: Role?
        var descending = false
        for line in text.split(whereSeparator: \.isNewline) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("[") {
                group = trimmed
                continue
            }
            guard group == "[Album Settings]", let equals = trimmed.firstIndex(of: "=") else { continue }
            let key = trimmed[..<equals].trimmingCharacters(in: .whitespaces)
            let value = Int(trimmed[trimmed.index(after: equals)...].trimmingCharacters(in: .whitespaces))
            if key == "Image Sort Order", let value { role = Role(digikamValue: value) }
            if key == "Image Sorting", let value { descending = value == 1 }
        }
        return role.map { DigikamItemSort(role: $0, descending: descending) }
    }
}
