import AlbumsImageFacts
import Foundation

/// What people write on an item of an album: a title, a caption, a
/// favourite mark, a rating and keywords.
///
/// They belong to the item, not to its photo: the same photo can carry a
/// caption for a photo book and another for a slideshow, and what is
/// written on an item is read exactly by those who see its album. A copy
/// of an item takes them along; a move keeps them.
public struct ItemMarks: Hashable, Sendable {
    /// A short name for the item; nil when it has none.
    public var title: String?
    /// The words beside it in a book or a slideshow; nil when none.
    public var caption: String?
    /// Whether it is marked as a favourite (a heart).
    public var isFavorite: Bool
    /// Its stars, or rejected; nil when not rated.
    public var rating: ItemRating?
    /// Its keywords, each once, in the order they were given.
    public var keywords: [String]

    /// Marks as given; ``ItemMarksEdit`` checks and tidies what a person writes.
    public init(title: String? = nil, caption: String? = nil, isFavorite: Bool = false, rating: ItemRating? = nil, keywords: [String] = []) {
        self.title = title
        self.caption = caption
        self.isFavorite = isFavorite
        self.rating = rating
        self.keywords = keywords
    }

    /// No words, no marks: what a new item carries.
    public static let none = ItemMarks()

    /// Whether it carries nothing.
    public var isEmpty: Bool { self == .none }

    /// Marks another program wrote (a file's XMP, IPTC or EXIF; an
    /// organizer's catalog), tidied as a person's are: trimmed, in NFC,
    /// keywords each once. What the library would refuse from a person is
    /// mended instead, since nobody is there to ask: control characters
    /// go, a title's or keyword's line breaks become spaces, a text beyond
    /// its limit is cut, keywords beyond their count are left out.
    public init(foundTitle title: String?, caption: String?, isFavorite: Bool = false, rating: Int?, keywords: [String]) {
        var kept: [String] = []
        var seen = Set<String>()
        for keyword in keywords {
            guard kept.count < ItemMarksEdit.keywordCountLimit,
                let tidy = ItemMarksEdit.mended(keyword, limit: ItemMarksEdit.keywordLimit, keepsLines: false),
                seen.insert(ItemMarksEdit.keywordIdentity(tidy)).inserted
            else { continue }
            kept.append(tidy)
        }
        self.init(
            title: ItemMarksEdit.mended(title, limit: ItemMarksEdit.titleLimit, keepsLines: false),
            caption: ItemMarksEdit.mended(caption, limit: ItemMarksEdit.captionLimit, keepsLines: true), isFavorite: isFavorite,
            rating: rating.flatMap(ItemRating.init(value:)), keywords: kept)
    }

    /// The marks a file carries, tidied as ``init(foundTitle:caption:isFavorite:rating:keywords:)`` tidies them.
    public init(found words: ImageWords) {
        self.init(foundTitle: words.title, caption: words.caption, rating: words.rating, keywords: words.keywords)
    }

    /// An album's description another program wrote, mended as a caption is
    /// (``init(foundTitle:caption:isFavorite:rating:keywords:)``); nil when nothing is left.
    package static func mendedDescription(_ text: String) -> String? {
        ItemMarksEdit.mended(text, limit: ItemMarksEdit.captionLimit, keepsLines: true)
    }

    /// These marks, with what they lack taken from `other`: a catalog's
    /// words over its file's.
    public func filled(from other: ItemMarks) -> ItemMarks {
        ItemMarks(
            title: title ?? other.title, caption: caption ?? other.caption, isFavorite: isFavorite || other.isFavorite,
            rating: rating ?? other.rating, keywords: keywords.isEmpty ? other.keywords : keywords)
    }
}

/// An item's rating: one to five stars, or rejected (a pick's opposite, as
/// Lightroom and digiKam have it). Rejected sorts below one star.
public struct ItemRating: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// -1 for rejected, else the stars: the value the library file keeps.
    public let value: Int

    /// Rejected: kept out of the book, not yet deleted.
    public static let rejected = ItemRating(checkedValue: -1)

    /// `count` stars, 1…5; nil for any other count.
    public static func stars(_ count: Int) -> ItemRating? {
        (1...5).contains(count) ? ItemRating(checkedValue: count) : nil
    }

    /// The rating the library file keeps as `value`; nil for a value it never keeps.
    public init?(value: Int) {
        guard value == -1 || (1...5).contains(value) else { return nil }
        self.value = value
    }

    private init(checkedValue: Int) {
        value = checkedValue
    }

    /// The stars; nil when rejected.
    public var stars: Int? { value > 0 ? value : nil }

    /// Whether it is rejected.
    public var isRejected: Bool { value < 0 }

    /// `rejected`, or the stars as a digit: what the CLI and the API take and say.
    public var description: String { isRejected ? "rejected" : String(value) }

    /// A rating as the CLI and the API spell it: `1`…`5` or `rejected`; nil for anything else.
    public init?(_ text: String) {
        if text == "rejected" {
            self = .rejected
        } else if text.count == 1, let digit = text.first?.wholeNumberValue, text.first?.isASCII == true, let rating = Self.stars(digit) {
            self = rating
        } else {
            return nil
        }
    }

    public static func < (lhs: ItemRating, rhs: ItemRating) -> Bool { lhs.value < rhs.value }
}

/// What one marking changes on each item it names; what it does not name stays.
///
/// ```swift
/// var edit = ItemMarksEdit()
/// edit.caption = .set("Grandpa's 80th")
/// edit.isFavorite = .set(true)
/// edit.addedKeywords = ["family"]
/// ```
public struct ItemMarksEdit: Hashable, Sendable {
    /// A field left as it is, or given a value (nil clears it).
    public enum Change<Value: Hashable & Sendable>: Hashable, Sendable {
        /// Left as the item has it.
        case keep
        /// Given this value.
        case set(Value)
    }

    /// The longest title, in characters.
    public static let titleLimit = 500
    /// The longest caption, in characters: a page of a photo book.
    public static let captionLimit = 10_000
    /// The longest keyword, in characters.
    public static let keywordLimit = 200
    /// How many keywords an item carries at most.
    public static let keywordCountLimit = 200

    /// The items' title (nil or only white space clears it).
    public var title: Change<String?> = .keep
    /// The items' caption (nil or only white space clears it).
    public var caption: Change<String?> = .keep
    /// Whether the items are favourites.
    public var isFavorite: Change<Bool> = .keep
    /// The items' rating (nil: not rated).
    public var rating: Change<ItemRating?> = .keep
    /// Keywords the items gain (those they carry already stay where they are).
    public var addedKeywords: [String] = []
    /// Keywords the items lose; removing one they do not carry is no failure.
    public var removedKeywords: [String] = []

    /// An edit that changes nothing yet.
    public init() {}

    /// Whether it names nothing to change.
    public var isEmpty: Bool {
        title == .keep && caption == .keep && isFavorite == .keep && rating == .keep && addedKeywords.isEmpty && removedKeywords.isEmpty
    }

    /// The fields it changes, in words for the history: "caption, favourite".
    public var fieldNames: [String] {
        var names: [String] = []
        if title != .keep { names.append("title") }
        if caption != .keep { names.append("caption") }
        if isFavorite != .keep { names.append("favourite") }
        if rating != .keep { names.append("rating") }
        if !addedKeywords.isEmpty || !removedKeywords.isEmpty { names.append("keywords") }
        return names
    }

    /// The edit as it is written: texts trimmed of surrounding white space,
    /// an empty text clearing its field, keywords trimmed and each once.
    ///
    /// - Throws: ``LibraryError/invalidWords(field:reason:)`` for an edit
    ///   that names nothing, a text beyond its limit, or control characters
    ///   (a caption keeps its line breaks and tabs).
    public func checked() throws -> ItemMarksEdit {
        guard !isEmpty else { throw LibraryError.invalidWords(field: "marks", reason: "say what to change: a title, a caption, a favourite, a rating or keywords") }
        var checked = self
        if case .set(let text) = title { checked.title = .set(try Self.text(text, field: "title", limit: Self.titleLimit, keepsLines: false)) }
        if case .set(let text) = caption { checked.caption = .set(try Self.text(text, field: "caption", limit: Self.captionLimit, keepsLines: true)) }
        checked.addedKeywords = try Self.keywords(addedKeywords)
        checked.removedKeywords = try Self.keywords(removedKeywords)
        let removed = Set(checked.removedKeywords.map(Self.keywordIdentity))
        if let both = checked.addedKeywords.first(where: { removed.contains(Self.keywordIdentity($0)) }) {
            throw LibraryError.invalidWords(field: "keywords", reason: "\(LibraryError.quoted(both)) is both added and removed")
        }
        if checked.addedKeywords.count > Self.keywordCountLimit {
            throw LibraryError.invalidWords(field: "keywords", reason: "an item carries at most \(Self.keywordCountLimit) keywords")
        }
        return checked
    }

    /// The marks `marks` become under this edit (a checked one).
    ///
    /// - Throws: ``LibraryError/invalidWords(field:reason:)`` when the item
    ///   would carry more keywords than ``keywordCountLimit``.
    public func applied(to marks: ItemMarks) throws -> ItemMarks {
        var result = marks
        if case .set(let value) = title { result.title = value }
        if case .set(let value) = caption { result.caption = value }
        if case .set(let value) = isFavorite { result.isFavorite = value }
        if case .set(let value) = rating { result.rating = value }
        if !removedKeywords.isEmpty {
            let removed = Set(removedKeywords.map(Self.keywordIdentity))
            result.keywords.removeAll { removed.contains(Self.keywordIdentity($0)) }
        }
        var carried = Set(result.keywords.map(Self.keywordIdentity))
        for keyword in addedKeywords where carried.insert(Self.keywordIdentity(keyword)).inserted {
            result.keywords.append(keyword)
        }
        if result.keywords.count > Self.keywordCountLimit {
            throw LibraryError.invalidWords(field: "keywords", reason: "an item carries at most \(Self.keywordCountLimit) keywords")
        }
        return result
    }

    /// What makes two keywords the same: their letters whatever their case
    /// and however their accents are composed ("Café" and "café").
    static func keywordIdentity(_ keyword: String) -> String {
        // ASCII is its own NFC: Foundation's normalization is for the rest.
        keyword.utf8.allSatisfy { $0 < 0x80 } ? keyword.lowercased() : keyword.precomposedStringWithCanonicalMapping.lowercased()
    }

    private static func keywords(_ keywords: [String]) throws -> [String] {
        var seen = Set<String>()
        var result: [String] = []
        for keyword in keywords {
            guard let tidy = try text(keyword, field: "keyword", limit: keywordLimit, keepsLines: false) else {
                throw LibraryError.invalidWords(field: "keyword", reason: "a keyword cannot be empty")
            }
            if seen.insert(keywordIdentity(tidy)).inserted { result.append(tidy) }
        }
        return result
    }

    /// A text another program wrote, mended into one ``text(_:field:limit:keepsLines:)``
    /// would take: refused characters left out (a name's line breaks and
    /// tabs become spaces), cut at `limit` characters; nil when nothing is left.
    static func mended(_ text: String?, limit: Int, keepsLines: Bool) -> String? {
        guard let text else { return nil }
        // Most words are printable ASCII, already in NFC: nothing to mend but the ends.
        if text.utf8.count <= limit, text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) {
            // The space is printable ASCII's one blank: trimmed by bytes, not through Foundation.
            let utf8 = text.utf8
            guard let first = utf8.firstIndex(where: { $0 != 0x20 }), let last = utf8.lastIndex(where: { $0 != 0x20 }) else { return nil }
            return first == utf8.startIndex && last == utf8.index(before: utf8.endIndex) ? text : String(text[first...last])
        }
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if scalar == "\r" { continue }
            if !keepsLines && (scalar == "\n" || scalar == "\t") {
                scalars.append(" ")
            } else if (scalar.properties.isBidiControl && !keepsLines) || (scalar.isControlCharacter && scalar != "\n" && scalar != "\t") {
                continue
            } else {
                scalars.append(scalar)
            }
        }
        let tidy = AlbumName.normalized(String(scalars).trimmingCharacters(in: .whitespacesAndNewlines))
        guard !tidy.isEmpty else { return nil }
        return tidy.count > limit ? String(tidy.prefix(limit)).trimmingCharacters(in: .whitespacesAndNewlines) : tidy
    }

    /// A text as it is kept: trimmed, in Unicode NFC (as names are), nil when empty.
    /// A title and a keyword are names and follow their rules (no line
    /// breaks, no bidirectional controls); a caption is prose, and keeps
    /// its line breaks, tabs and the direction marks right-to-left text needs.
    private static func text(_ text: String?, field: String, limit: Int, keepsLines: Bool) throws -> String? {
        guard let text else { return nil }
        let tidy = AlbumName.normalized(text.trimmingCharacters(in: .whitespacesAndNewlines))
        if tidy.isEmpty { return nil }
        if tidy.count > limit { throw LibraryError.invalidWords(field: field, reason: "at most \(limit) characters, and it has \(tidy.count)") }
        let allowed: Set<Unicode.Scalar> = keepsLines ? ["\n", "\t"] : []
        if let control = tidy.unicodeScalars.first(where: { ($0.isControlCharacter && !allowed.contains($0)) || (!keepsLines && $0.properties.isBidiControl) }) {
            throw LibraryError.invalidWords(field: field, reason: "it cannot contain U+\(String(format: "%04X", control.value)), a control character")
        }
        return tidy
    }
}
