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
            }.joined(separator: "  ").replacing(/\s+$/, with: "")
        }
    }
}
