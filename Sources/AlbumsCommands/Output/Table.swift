extension String {
    /// The text without the spaces that pad its end (a Regex would cost
    /// its compilation on every run of a short command).
    fileprivate func trimmingTrailingSpaces() -> String {
        var end = endIndex
        while end > startIndex, self[index(before: end)] == " " { end = index(before: end) }
        return String(self[..<end])
    }
}

/// Columns aligned for a terminal: each as wide as its widest cell, the last left ragged.
struct Table {
    let header: [String]
    let rows: [[String]]

    var lines: [String] {
        let all = [header] + rows
        let widths = header.indices.map { column in all.map { $0.count > column ? $0[column].count : 0 }.max() ?? 0 }
        return all.map { row in
            row.enumerated().map { column, cell in
                column == row.count - 1 ? cell : cell + String(repeating: " ", count: widths[column] - cell.count)
            }.joined(separator: "  ").trimmingTrailingSpaces()
        }
    }
}
