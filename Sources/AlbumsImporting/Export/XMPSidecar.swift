import AlbumsImageFacts
import AlbumsPersistence

/// What is written on an item, as an XMP sidecar beside its exported file
/// (`007-harbour.jpg.xmp`, the name darktable and digiKam look for; exiftool
/// reads it under any name): the title (`dc:title`), the caption
/// (`dc:description`), the rating (`xmp:Rating`, -1 for rejected, as
/// Lightroom and darktable write it) and the keywords (`dc:subject`).
///
/// A favourite mark has no field these programs share, so it is not written.
enum XMPSidecar {
    /// The sidecar's name beside `file`.
    static func name(for file: String) -> String { file + ".xmp" }

    /// The sidecar of `marks`; nil when it carries nothing a sidecar holds.
    static func text(for marks: ItemMarks) -> String? {
        guard marks.title != nil || marks.caption != nil || marks.rating != nil || !marks.keywords.isEmpty else { return nil }
        var lines = [
            #"<?xpacket begin="\#u{FEFF}" id="W5M0MpCehiHzreSzNTczkc9d"?>"#,
            #"<x:xmpmeta xmlns:x="adobe:ns:meta/">"#,
            #" <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">"#,
            #"  <rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:xmp="http://ns.adobe.com/xap/1.0/""#
                + (marks.rating.map { #" xmp:Rating="\#($0.value)""# } ?? "") + ">",
        ]
        func alternative(_ property: String, _ text: String?) {
            guard let text else { return }
            lines.append(#"   <\#(property)><rdf:Alt><rdf:li xml:lang="x-default">\#(XMLEntities.encoded(text))</rdf:li></rdf:Alt></\#(property)>"#)
        }
        alternative("dc:title", marks.title)
        alternative("dc:description", marks.caption)
        if !marks.keywords.isEmpty {
            lines.append("   <dc:subject><rdf:Bag>" + marks.keywords.map { "<rdf:li>\(XMLEntities.encoded($0))</rdf:li>" }.joined() + "</rdf:Bag></dc:subject>")
        }
        lines += ["  </rdf:Description>", " </rdf:RDF>", "</x:xmpmeta>", #"<?xpacket end="w"?>"#]
        return lines.joined(separator: "\n") + "\n"
    }
}
