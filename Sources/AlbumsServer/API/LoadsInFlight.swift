/// The loads uploads started, which outlive their requests: the server
/// waits for them before it stops, so no placeholder is left behind by a
/// clean shutdown.
actor LoadsInFlight {
    private var running: [Int: Task<Void, Never>] = [:]
    private var nextKey = 0

    /// Starts `work` in the background.
    func start(_ work: @escaping @Sendable () async -> Void) {
        let key = nextKey
        nextKey += 1
        running[key] = Task {
            await work()
            self.finished(key)
        }
    }

    private func finished(_ key: Int) {
        running[key] = nil
    }

    /// Waits until every load started so far has committed or failed.
    func waitForAll() async {
        while let (key, task) = running.first {
            await task.value
            running[key] = nil
        }
    }
}
