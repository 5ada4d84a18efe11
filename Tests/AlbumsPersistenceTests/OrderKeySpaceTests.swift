import AlbumsTestSupport
import Testing

@testable import AlbumsPersistence

@Suite("Order key spaces")
struct OrderKeySpaceTests {
    let space = OrderKeySpace.items

    @Test("a fresh layout is increasing, centred and spaced by the step")
    func layout() {
        let keys = space.layout(count: 1000)
        #expect(keys.count == 1000)
        #expect(zip(keys, keys.dropFirst()).allSatisfy { $1 - $0 == space.step })
        #expect(keys.first! > 0 && keys.last! < space.limit)
        #expect(abs((keys.first! - 0) - (space.limit - keys.last!)) <= space.step)
    }

    @Test("a layout too large for the step still fits, with smaller gaps")
    func denseLayout() {
        let small = OrderKeySpace(limit: 1000, step: 100)
        let keys = small.layout(count: 50)
        #expect(keys.count == 50)
        #expect(zip(keys, keys.dropFirst()).allSatisfy { $0 < $1 })
        #expect(keys.first! > 0 && keys.last! < 1000)
    }

    @Test("appending and prepending keep the step; between splits the gap")
    func insertion() {
        #expect(space.keys(count: 2, after: 100, before: nil) == [100 + space.step, 100 + 2 * space.step])
        #expect(space.keys(count: 2, after: nil, before: space.limit - 1) == [space.limit - 1 - 2 * space.step, space.limit - 1 - space.step])
        #expect(space.keys(count: 3, after: 0, before: 8) == [2, 4, 6])
        #expect(space.keys(count: 1, after: 10, before: 12) == [11])
    }

    @Test("a used-up gap says so instead of colliding")
    func exhausted() {
        #expect(space.keys(count: 1, after: 10, before: 11) == nil)
        #expect(space.keys(count: 3, after: 10, before: 13) == nil)
        #expect(space.keys(count: 1, after: space.limit - 1, before: nil) == nil)
    }

    @Test("parked keys stay above every key in use and distinct")
    func parking() {
        #expect(space.parked(1) >= space.limit)
        #expect(space.parked(space.limit - 1) < 2 * space.limit)
    }
}
