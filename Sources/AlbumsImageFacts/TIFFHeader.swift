/// TIFF and BigTIFF: the first directory gives the size, the orientation,
/// the XMP packet and, with its EXIF sub-directory, the capture date.
enum TIFFHeader {
    static func read(_ bytes: ByteView) throws(ImageReadFailure) -> ImageFacts {
        guard let directory = TIFFDirectory.read(bytes) else {
            throw .damaged(format: "TIFF", detail: "the first directory is missing or cut short")
        }
        guard let width = directory.width, let height = directory.height, width > 0, height > 0 else {
            throw .damaged(format: "TIFF", detail: "the first directory gives no pixel size")
        }
        let metadata = EmbeddedMetadata(exif: directory, xmp: directory.xmp)
        return metadata.facts(mediaType: "image/tiff", width: width, height: height)
    }
}
