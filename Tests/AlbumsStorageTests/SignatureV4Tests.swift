import Foundation
import Testing

@testable import AlbumsStorage

/// Request signing against the examples AWS publishes: the Signature
/// Version 4 test suite's `get-vanilla` and `post-vanilla`, and the four S3
/// examples of "Signature Calculations for the Authorization Header"
/// (examplebucket, 24 May 2013). Each signature is AWS's, not ours: a
/// canonical form, a key derivation or an encoding off by one byte fails.
@Suite("AWS Signature Version 4")
struct SignatureV4Tests {
    /// 30 August 2015, 12:36:00 UTC: the test suite's time.
    static let suiteTime = Date(timeIntervalSince1970: 1_440_938_160)
    /// 24 May 2013, 00:00:00 UTC: the S3 examples' time.
    static let s3Time = Date(timeIntervalSince1970: 1_369_353_600)

    let suite = SignatureV4(
        credentials: S3Credentials(accessKeyID: "AKIDEXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"),
        region: "us-east-1", service: "service")
    let s3 = SignatureV4(
        credentials: S3Credentials(accessKeyID: "AKIAIOSFODNN7EXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"),
        region: "us-east-1")

    func vanilla(_ method: String) -> SignatureV4.Request {
        SignatureV4.Request(
            method: method, path: "/",
            headers: [("Host", "example.amazonaws.com"), ("X-Amz-Date", "20150830T123600Z")],
            payloadHash: SignatureV4.emptyPayloadHash)
    }

    @Test("the times and the empty payload read as AWS writes them")
    func formats() {
        #expect(SignatureV4.amzDate(Self.suiteTime) == "20150830T123600Z")
        #expect(SignatureV4.amzDate(Self.s3Time) == "20130524T000000Z")
        #expect(SignatureV4.emptyPayloadHash == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }

    @Test("x-amz-date is the time in UTC to the second, whatever the time: leap days, the turn of a century, a second's last fraction")
    func datesOfAnyTime() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: "UTC"))
        let edges: [TimeInterval] = [
            0, 59.999, 951_782_399.999, 951_782_400, 951_868_799, 978_307_199.5, 4_107_542_399, 4_107_542_400, 2_147_483_647, 253_402_300_799,
        ]
        // A step that is no whole number of days or hours, so that every time of day and day of the year comes round.
        for seconds in Array(stride(from: 0.0, through: 8_000_000_000, by: 8_380_063.37)) + edges {
            let time = Date(timeIntervalSince1970: seconds)
            let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: time)
            let expected = String(
                format: "%04d%02d%02dT%02d%02d%02dZ", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0, parts.hour ?? 0, parts.minute ?? 0, parts.second ?? 0)
            #expect(SignatureV4.amzDate(time) == expected, "\(seconds)")
        }
    }

    @Test("a header's value is signed with its runs of spaces made one and its ends trimmed of tabs and any space separator")
    func headerValuesTrimmed() {
        let request = SignatureV4.Request(
            method: "GET", path: "/",
            headers: [("Host", "example.amazonaws.com"), ("My-Header", " \t value   with\tspaces\u{3000}"), ("X-Blank", " \u{00A0}\t ")],
            payloadHash: SignatureV4.emptyPayloadHash)
        #expect(SignatureV4.canonicalRequest(request).split(separator: "\n", omittingEmptySubsequences: false).dropFirst(3).prefix(4) == [
            "host:example.amazonaws.com", "my-header:value with\tspaces", "x-blank:", "",
        ])
    }

    @Test("get-vanilla: the canonical request, the string to sign and the signature of the test suite")
    func getVanilla() {
        let request = vanilla("GET")
        #expect(SignatureV4.canonicalRequest(request) == """
            GET
            /

            host:example.amazonaws.com
            x-amz-date:20150830T123600Z

            host;x-amz-date
            e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855
            """)
        #expect(suite.stringToSign(for: request, at: Self.suiteTime) == """
            AWS4-HMAC-SHA256
            20150830T123600Z
            20150830/us-east-1/service/aws4_request
            bb579772317eb040ac9ed261061d46c1f17a8133879d6129b6e1c25292927e63
            """)
        #expect(
            suite.authorization(for: request, at: Self.suiteTime)
                == "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, SignedHeaders=host;x-amz-date, "
                + "Signature=5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31")
    }

    @Test("post-vanilla: the test suite's signature")
    func postVanilla() {
        #expect(suite.signature(for: vanilla("POST"), at: Self.suiteTime) == "5da7c1a2acd57cee7505fc6676e4e544621c30862966e37dddb68e92efbe5d6b")
    }

    @Test("S3's GET Object, with a Range")
    func getObject() {
        let request = SignatureV4.Request(
            method: "GET", path: SignatureV4.encodedPath("test.txt"),
            headers: [
                ("Host", "examplebucket.s3.amazonaws.com"), ("Range", "bytes=0-9"),
                ("x-amz-content-sha256", SignatureV4.emptyPayloadHash), ("x-amz-date", "20130524T000000Z"),
            ],
            payloadHash: SignatureV4.emptyPayloadHash)
        #expect(
            s3.authorization(for: request, at: Self.s3Time)
                == "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, "
                + "SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, "
                + "Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41")
    }

    @Test("S3's PUT Object: a key with a $ encoded once, the body's hash signed")
    func putObject() {
        let body = SignatureV4.hexSHA256(Data("Welcome to Amazon S3.".utf8))
        #expect(body == "44ce7dd67c959e0d3524ffac1771dfbba87d2b6b4b4e99e42034a8b803f8b072")
        let request = SignatureV4.Request(
            method: "PUT", path: SignatureV4.encodedPath("test$file.text"),
            headers: [
                ("Host", "examplebucket.s3.amazonaws.com"), ("Date", "Fri, 24 May 2013 00:00:00 GMT"),
                ("x-amz-date", "20130524T000000Z"), ("x-amz-storage-class", "REDUCED_REDUNDANCY"), ("x-amz-content-sha256", body),
            ],
            payloadHash: body)
        #expect(request.path == "/test%24file.text")
        #expect(s3.signature(for: request, at: Self.s3Time) == "98ad721746da40c64f1a55b78f14c238d841ea1380cd77a1b5971af0ece108bd")
    }

    @Test("S3's GET Bucket lifecycle (a parameter without a value) and list objects (parameters sorted)")
    func bucketQueries() {
        func request(_ query: [(name: String, value: String)]) -> SignatureV4.Request {
            SignatureV4.Request(
                method: "GET", path: "/", query: query,
                headers: [
                    ("Host", "examplebucket.s3.amazonaws.com"), ("x-amz-date", "20130524T000000Z"),
                    ("x-amz-content-sha256", SignatureV4.emptyPayloadHash),
                ],
                payloadHash: SignatureV4.emptyPayloadHash)
        }
        #expect(s3.signature(for: request([("lifecycle", "")]), at: Self.s3Time) == "fea454ca298b7da1c68078a5d1bdbfbbe0d65c699e0f91ac7a200a0136783543")
        #expect(
            s3.signature(for: request([("prefix", "J"), ("max-keys", "2")]), at: Self.s3Time)
                == "34b48302e7b5fa45bde8084f4b7868a86f0a534bc59db6670ed5711ef69dc6f7")
    }

    @Test("a key in any script is percent-encoded byte by byte, its slashes kept")
    func encoding() {
        #expect(SignatureV4.encodedPath("originals/ab/été 2024.jpg") == "/originals/ab/%C3%A9t%C3%A9%202024.jpg")
        #expect(SignatureV4.encodedPath("a+b=c&d~e_f-g.h") == "/a%2Bb%3Dc%26d~e_f-g.h")
        #expect(SignatureV4.percentEncoded("a/b", keepingSlashes: false) == "a%2Fb")
        #expect(SignatureV4.encodedPath("") == "/")
    }

    @Test("another secret, region, day or byte of the request is another signature")
    func everyPartCounts() {
        let request = vanilla("GET")
        let signature = suite.signature(for: request, at: Self.suiteTime)
        var other = request
        other.payloadHash = SignatureV4.hexSHA256(Data("x".utf8))
        #expect(suite.signature(for: other, at: Self.suiteTime) != signature)
        #expect(suite.signature(for: request, at: Self.suiteTime.addingTimeInterval(86_400)) != signature)
        let elsewhere = SignatureV4(credentials: suite.credentials, region: "eu-west-1", service: "service")
        #expect(elsewhere.signature(for: request, at: Self.suiteTime) != signature)
        let wrongKey = SignatureV4(credentials: S3Credentials(accessKeyID: "AKIDEXAMPLE", secretAccessKey: "another"), region: "us-east-1", service: "service")
        #expect(wrongKey.signature(for: request, at: Self.suiteTime) != signature)
    }
}
