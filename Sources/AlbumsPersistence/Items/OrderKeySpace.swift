/// Integer order keys with gaps, so an insertion usually writes one row.
///
/// Keys live in `1 ..< limit`. A fresh layout spaces keys `step` apart and
/// centres them, leaving room to append and to prepend; an insertion between
/// two keys takes the points that split their gap evenly. When a gap is
/// used up, the caller relays out a bounded stretch of keys (a segment),
/// never a whole album.
struct OrderKeySpace: Sendable {
    /// Keys are below this. Keys from `limit` to `2 * limit` are parked rows.
    let limit: Int64
    /// The spacing of a fresh layout and of appends.
    let step: Int64

    /// Item keys inside a segment: below 2^46, so SQLite stores each in at most 6 bytes.
    static let items = OrderKeySpace(limit: 1 << 46, step: 1 << 34)
    /// Segment keys inside an album, and album keys inside the library.
    static let segments = OrderKeySpace(limit: 1 << 61, step: 1 << 40)

    /// The key a row is parked at while keys are exchanged: above every key
    /// in use and unique, because `key` is.
    func parked(_ key: Int64) -> Int64 { key + limit }

    /// `count` distinct keys in the parking range, none of them in `taken`:
    /// where rows wait while their keys are laid out afresh, even when a
    /// damaged file holds keys outside the range in use (a repair).
    /// Taken from the top of the range the schema allows (`2 * limit - 1`) down.
    func parkingKeys(count: Int, avoiding taken: Set<Int64>) -> [Int64] {
        var keys: [Int64] = []
        var candidate = 2 * limit - 1
        while keys.count < count {
            if !taken.contains(candidate) { keys.append(candidate) }
            candidate -= 1
        }
        return keys
    }

    /// `count` fresh keys, evenly spaced and centred.
    func layout(count: Int) -> [Int64] {
        guard count > 0 else { return [] }
        let spacing = min(step, (limit - 1) / Int64(count + 1))
        let first = (limit - spacing * Int64(count - 1)) / 2
        return (0..<count).map { first + spacing * Int64($0) }
    }

    /// `count` increasing keys strictly between `lower` and `upper` (nil: an
    /// open end), or nil if the gap has no room for them.
    func keys(count: Int, after lower: Int64?, before upper: Int64?) -> [Int64]? {
        guard count > 0 else { return [] }
        let count64 = Int64(count)
        switch (lower, upper) {
        case (nil, nil):
            return layout(count: count)
        case (let lower?, nil):
            // Appending: keep the usual spacing while it fits.
            let (end, overflow) = step.multipliedReportingOverflow(by: count64)
            if !overflow, lower < limit - end {
                return (1...count64).map { lower + step * $0 }
            }
            return spread(count: count, above: lower, below: limit)
        case (nil, let upper?):
            let (start, overflow) = step.multipliedReportingOverflow(by: count64)
            if !overflow, upper - start > 0 {
                return (0..<count64).map { upper - step * (count64 - $0) }
            }
            return spread(count: count, above: 0, below: upper)
        case (let lower?, let upper?):
            return spread(count: count, above: lower, below: upper)
        }
    }

    private func spread(count: Int, above lower: Int64, below upper: Int64) -> [Int64]? {
        let gap = (upper - lower) / Int64(count + 1)
        guard gap >= 1 else { return nil }
        return (1...Int64(count)).map { lower + gap * $0 }
    }
}
