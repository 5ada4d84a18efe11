// albums benchmarks: each measurement against its reference, side by side in one run.
//
// Usage: albums-benchmarks [moves|history|process|keys|import|words|serve|tree|catalog|search|all] [ALBUM SIZES…]
//        albums-benchmarks words [PHOTOS]            importing photos with XMP against the same without (default 10,000)
//        albums-benchmarks catalog [PHOTOS ALBUMS]   (default 20,000 in 200; by hand: 100000 1000)
//        albums-benchmarks search [PHOTOS]           (default 1,000,000)
//        albums-benchmarks library COUNT PATH   a library whose album "Book" holds COUNT items
//                                               (the page's scrolling benchmark opens it)
// (scripts/benchmark builds it, and albums, in release mode.)
import Foundation

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "library", arguments.count == 3, let count = Int(arguments[1]) {
    try makeLibrary(count: count, at: arguments[2], album: "Book")
    exit(0)
}
let sections = ["moves", "history", "process", "keys", "import", "words", "serve", "tree", "catalog", "search"]
let chosen = arguments.first.flatMap { sections.contains($0) ? [$0] : nil } ?? sections
let sizes = arguments.compactMap { Int($0) }.nilIfEmpty ?? [100, 10_000, 100_000, 1_000_000]
let folder = FileManager.default.temporaryDirectory.appending(path: "albums-benchmarks-\(ProcessInfo.processInfo.processIdentifier)")
try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
for section in ["process-3k", "process-100k", "process-1m", "keys"] {
    try FileManager.default.createDirectory(at: folder.appending(path: section), withIntermediateDirectories: true)
}
defer { try? FileManager.default.removeItem(at: folder) }

let started = ContinuousClock.now
print("albums benchmarks — \(ProcessInfo.processInfo.activeProcessorCount) cores, \(ProcessInfo.processInfo.physicalMemory >> 30) GiB")
if chosen.contains("moves") { printMoves(try MoveBenchmark(folder: folder, sizes: sizes).run()) }
if chosen.contains("history") { printHistory(try HistoryBenchmark(folder: folder, sizes: sizes).run()) }
if chosen.contains("process") { printProcesses(try ProcessBenchmark(folder: folder).run()) }
if chosen.contains("keys") { printKeyLengths(try KeyLengthBenchmark(folder: folder).run()) }
if chosen.contains("import") { try runImportBenchmark(in: folder) }
if chosen.contains("words") {
    let count = arguments.first == "words" ? arguments.dropFirst().compactMap { Int($0) }.first : nil
    try runWordsImportBenchmark(in: folder, count: count ?? 10_000)
}
if chosen.contains("serve") {
    // A proposal's round trip at the smallest and the largest album.
    let ends = Array(Set([sizes.min()!, sizes.max()!])).sorted()
    printServer(try ServerBenchmark(folder: folder, sizes: ends).run())
}
if chosen.contains("tree") { printTree(try TreeBenchmark(folder: folder).run()) }
if chosen.contains("catalog") {
    // Its own sizes: photos and albums (the album sizes above are another benchmark's).
    let counts = arguments.first == "catalog" ? arguments.dropFirst().compactMap { Int($0) } : []
    let (photos, albums) = counts.count == 2 ? (counts[0], counts[1]) : (20_000, 200)
    // At a quarter of the size too: peak memory that does not grow with it is flat.
    try runCatalogBenchmark(in: folder, photos: photos / 4, albums: albums / 4)
    try runCatalogBenchmark(in: folder, photos: photos, albums: albums)
}
if chosen.contains("search") {
    let count = arguments.first == "search" ? arguments.dropFirst().compactMap { Int($0) }.first : nil
    try runSearchBenchmark(in: folder, count: count ?? 1_000_000)
}
print(String(format: "\n(ran in %.0f s)", microseconds(ContinuousClock.now - started) / 1e6))

extension Array {
    var nilIfEmpty: Self? { isEmpty ? nil : self }
}
