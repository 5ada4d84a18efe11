/// When a photo was taken, as the file records it: the camera's clock
/// time, to the precision the file gives, and the zone offset when the
/// file names one.
///
/// The text form is ISO 8601: `2026-07-14T09:12:00.25+02:00`, or as little
/// as `1975` for a scanned print dated by year. Most camera files name no
/// zone, so a capture date is a clock time rather than an instant, and
/// two photos are ordered by ``sortKey``.
public struct CaptureDate: Hashable, Sendable, CustomStringConvertible, LosslessStringConvertible {
    /// The ISO 8601 text, as stored and printed.
    public let text: String
    /// The offset from UTC in minutes, when the file records one.
    public let utcOffsetMinutes: Int?
    /// The clock time's fields: year, month, day, hour, minute, second and
    /// the fraction's digits; nil where the file gives less.
    private let fields: Fields

    private struct Fields: Hashable {
        var year: Int
        var month: Int?
        var day: Int?
        var hour: Int?
        var minute: Int?
        var second: Int?
        var fraction: String?
    }

    /// Parses the text form; nil for anything else, including dates that do
    /// not exist on a calendar (month 13, hour 25) and the year 0000 that
    /// cameras write for "unknown".
    public init?(_ text: String) {
        var scanner = Scanner(Array(text.utf8))
        guard let year = scanner.number(digits: 4), year > 0 else { return nil }
        var fields = Fields(year: year)
        var offset: Int?
        if scanner.take("-") {
            guard let month = scanner.number(digits: 2), (1...12).contains(month) else { return nil }
            fields.month = month
            if scanner.take("-") {
                guard let day = scanner.number(digits: 2), (1...Self.days(inMonth: month, year: year)).contains(day) else { return nil }
                fields.day = day
                if scanner.take("T") {
                    guard let hour = scanner.number(digits: 2), hour < 24, scanner.take(":"),
                        let minute = scanner.number(digits: 2), minute < 60
                    else { return nil }
                    fields.hour = hour
                    fields.minute = minute
                    if scanner.take(":") {
                        // 60 is a leap second.
                        guard let second = scanner.number(digits: 2), second <= 60 else { return nil }
                        fields.second = second
                        if scanner.take(".") {
                            guard let fraction = scanner.digits(), !fraction.isEmpty else { return nil }
                            fields.fraction = fraction
                        }
                    }
                    if let sign = scanner.take(["+", "-"]) {
                        guard let hours = scanner.number(digits: 2), hours <= 14, scanner.take(":"),
                            let minutes = scanner.number(digits: 2), minutes < 60
                        else { return nil }
                        offset = (hours * 60 + minutes) * (sign == "-" ? -1 : 1)
                    }
                }
            }
        }
        guard scanner.isAtEnd else { return nil }
        self.text = text
        self.fields = fields
        self.utcOffsetMinutes = offset
    }

    public var description: String { text }

    /// What `album sort --by capture-date` compares: the instant, as a UTC
    /// clock time, when the photo records a zone offset; its clock time as
    /// written otherwise. Keys compare as strings, so a date given only to
    /// the day sorts before every time on that day.
    public var sortKey: String {
        guard let offset = utcOffsetMinutes, let day = fields.day, let month = fields.month,
            let hour = fields.hour, let minute = fields.minute
        else { return clockText }
        // Whole minutes since 0001-01-01T00:00 shifted by the offset, then back to fields.
        let minutes = (Self.daysBefore(year: fields.year, month: month) + day - 1) * 1440 + hour * 60 + minute - offset
        guard minutes >= 0 else { return clockText }
        let (days, minuteOfDay) = minutes.quotientAndRemainder(dividingBy: 1440)
        let (year, monthIndex, dayOfMonth) = Self.date(fromDayNumber: days)
        var key = Self.padded(year, 4) + "-" + Self.padded(monthIndex, 2) + "-" + Self.padded(dayOfMonth, 2)
        key += "T" + Self.padded(minuteOfDay / 60, 2) + ":" + Self.padded(minuteOfDay % 60, 2)
        if let second = fields.second { key += ":" + Self.padded(second, 2) }
        if let fraction = fields.fraction { key += "." + fraction }
        return key
    }

    /// The text without its offset.
    private var clockText: String {
        guard utcOffsetMinutes != nil else { return text }
        return String(text.dropLast(6))
    }

    // MARK: - Calendar arithmetic (proleptic Gregorian, as ISO 8601)

    private static func isLeap(_ year: Int) -> Bool { year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) }

    private static func days(inMonth month: Int, year: Int) -> Int {
        switch month {
        case 2: isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days from 0001-01-01 to the first of `month` in `year`.
    private static func daysBefore(year: Int, month: Int) -> Int {
        let y = year - 1
        var days = y * 365 + y / 4 - y / 100 + y / 400
        for m in 1..<month { days += Self.days(inMonth: m, year: year) }
        return days
    }

    private static func date(fromDayNumber number: Int) -> (year: Int, month: Int, day: Int) {
        var year = max(1, number / 366)
        while daysBefore(year: year + 1, month: 1) <= number { year += 1 }
        while year > 1 && daysBefore(year: year, month: 1) > number { year -= 1 }
        var month = 1
        while month < 12 && daysBefore(year: year, month: month + 1) <= number { month += 1 }
        return (year, month, number - daysBefore(year: year, month: month) + 1)
    }

    private static func padded(_ value: Int, _ width: Int) -> String {
        let digits = String(max(0, value))
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    /// Reads ASCII text left to right.
    private struct Scanner {
        let bytes: [UInt8]
        var index = 0

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        var isAtEnd: Bool { index == bytes.count }

        mutating func take(_ character: Character) -> Bool {
            guard index < bytes.count, bytes[index] == character.asciiValue else { return false }
            index += 1
            return true
        }

        mutating func take(_ characters: [Character]) -> Character? {
            characters.first { take($0) }
        }

        mutating func number(digits count: Int) -> Int? {
            guard index + count <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[index..<index + count] {
                guard (0x30...0x39).contains(byte) else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            index += count
            return value
        }

        mutating func digits() -> String? {
            let start = index
            while index < bytes.count, (0x30...0x39).contains(bytes[index]) { index += 1 }
            return String(decoding: bytes[start..<index], as: UTF8.self)
        }
    }
}
