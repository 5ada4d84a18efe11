/// GIF: the logical screen size follows the signature, little-endian.
enum GIFHeader {
    static func read(_ bytes: ByteView) throws(ImageReadFailure) -> ImageFacts {
        guard let width = bytes.u16(6, bigEndian: false), let height = bytes.u16(8, bigEndian: false) else {
            throw .damaged(format: "GIF", detail: "the screen descriptor is cut short")
        }
        guard width > 0, height > 0 else { throw .damaged(format: "GIF", detail: "it declares \(width)×\(height) pixels") }
        return ImageFacts(mediaType: "image/gif", pixelWidth: Int(width), pixelHeight: Int(height))
    }
}
