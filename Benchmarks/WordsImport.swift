import Foundation

/// `albums import` of `count` small JPEGs as they come from a camera, beside
/// the same photos carrying words in their XMP (a title, a caption, stars
/// and keywords, as Lightroom writes them into the file), and beside them
/// again with the words in an XMP sidecar beside each file (as digiKam and
/// darktable write them): whole processes, page cache warm, median of 3.
func runWordsImportBenchmark(in folder: URL, count: Int) throws {
    let example = try Data(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appending(path: "Examples/Photos/01-harbour.jpg"))
    func packet(_ index: Int) -> String {
        """
        <?xpacket begin="\u{FEFF}" id="W5M0MpCehiHzreSzNTczkc9d"?>
        <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
         <rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:xmp="http://ns.adobe.com/xap/1.0/"
           xmlns:lr="http://ns.adobe.com/lightroom/1.0/" xmp:Rating="\(1 + index % 5)">
          <dc:title><rdf:Alt><rdf:li xml:lang="x-default">Harbour \(index)</rdf:li></rdf:Alt></dc:title>
          <dc:description><rdf:Alt><rdf:li xml:lang="x-default">Day \(index) at the harbour with grandma, boats coming in</rdf:li></rdf:Alt></dc:description>
          <dc:subject><rdf:Bag><rdf:li>family</rdf:li><rdf:li>harbour</rdf:li><rdf:li>summer</rdf:li></rdf:Bag></dc:subject>
          <lr:hierarchicalSubject><rdf:Bag><rdf:li>Places|Portugal|Porto</rdf:li></rdf:Bag></lr:hierarchicalSubject>
         </rdf:Description></rdf:RDF></x:xmpmeta>
        <?xpacket end="w"?>
        """
    }
    let signature = Data("http://ns.adobe.com/xap/1.0/\0".utf8)
    var sets: [(title: String, path: String)] = []
    for kind in ["plain", "xmp", "sidecar"] {
        let photos = folder.appending(path: "words-\(kind)")
        try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
        for index in 0..<count {
            // Distinct bytes after the image's end, the same in each set.
            var tail = Data("\0photo \(index)\0".utf8)
            tail.append(contentsOf: withUnsafeBytes(of: UInt64(index).bigEndian) { Array($0) })
            var data = example
            if kind == "xmp" {
                let body = signature + Data(packet(index).utf8)
                data = example.prefix(2) + Data([0xFF, 0xE1, UInt8((body.count + 2) >> 8), UInt8((body.count + 2) & 0xFF)]) + body + example.dropFirst(2)
            }
            let name = String(format: "photo-%05d.jpg", index)
            try (data + tail).write(to: photos.appending(path: name))
            if kind == "sidecar" { try Data(packet(index).utf8).write(to: photos.appending(path: name + ".xmp")) }
        }
        sets.append((kind, photos.path))
    }
    var times: [String: [Double]] = [:]
    for round in 0..<4 {
        for (kind, path) in sets {
            let library = ["ALBUMS_LIBRARY": folder.appending(path: "words-\(kind)-\(round).albums").path]
            _ = try runProcess(albumsBinary, ["album", "create", "Bench"], environment: library)
            let time = try runProcess(albumsBinary, ["import", path, "--to", "Bench"], environment: library)
            // The first round warms the page cache.
            if round > 0 { times[kind, default: []].append(time) }
            try? FileManager.default.removeItem(atPath: library["ALBUMS_LIBRARY"] ?? "")
        }
    }
    let plain = median(times["plain"] ?? [])
    print("")
    print("import with words in the files — \(count) JPEGs of \(example.count >> 10) KB, page cache warm, median of 3")
    for (kind, title) in [("plain", "no words"), ("xmp", "XMP in each file"), ("sidecar", "an XMP sidecar beside each")] {
        let time = median(times[kind] ?? [])
        let verdict = kind == "plain" ? "" : "  (target ≤ 1.1×: \(time / plain <= 1.1 ? "pass" : "short"))"
        print("  " + title.padding(toLength: 28, withPad: " ", startingAt: 0) + String(format: " %8.0f ms   %5.2f×", time, time / plain) + verdict)
    }
}
