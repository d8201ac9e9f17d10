import Testing

@testable import PodiumStore

@Suite("Log throttle (fallback warnings)", .timeLimit(.minutes(5)))
struct LogThrottleTests {
    @Test("the first message is written, then one per interval with the count left out")
    func writesOncePerInterval() {
        var throttle = LogThrottle(interval: .seconds(10))
        let start = ContinuousClock.now
        let at = { (seconds: Double) in start + .milliseconds(Int(seconds * 1000)) }
        #expect(throttle.admit(now: at(0)) == 0)
        #expect(throttle.admit(now: at(1)) == nil)
        #expect(throttle.admit(now: at(9.999)) == nil)
        #expect(throttle.admit(now: at(10)) == 2)
        #expect(throttle.admit(now: at(15)) == nil)
        #expect(throttle.admit(now: at(60)) == 1)
        #expect(throttle.admit(now: at(70)) == 0)
    }
}
