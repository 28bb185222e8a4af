import BackgroundSimulation
import BackgroundTrace
import BackgroundTraceCheck
import Testing

/// docs/guides/capturing.md, "In unit tests, with the simulator": a `BGTaskScheduler`
/// refresh through `TaskScheduling`, with `SimulatedSystem` as the scheduler.
@Suite struct RefreshGuideTests {
  @Test func theRefreshRunsAndAsksForTheNext() {
    let system = SimulatedSystem(seed: 7)
    system.launchApp { system in
      FeedRefreshApp(scheduler: system)  // SimulatedSystem is the app's TaskScheduling too
    }
    system.moveToBackground()
    system.advance(by: .seconds(6 * 3600))  // a refresh launches 15 min to 8 h after its earliest date
    #expect(system.app(as: FeedRefreshApp.self)?.refreshes == 1)
    #expect(TraceChecker.check(system.trace).isEmpty)
    // Registered at launch, submitted on leaving (earliest 1 h); seed 7's refresh launches
    // 11,776.25 s (3.3 h, inside 15 min to 8 h) after that earliest date, submits the next
    // first thing and completes; the app is suspended 3 s after each. Each request is due
    // at its earliest date, and then waits only for the system's chosen time.
    #expect(
      system.trace.text == """
        bgtrace 1
        meta platform=ios seed=7 budget=30
        0 app.launch
        0 sched.register ident=com.example.feed.refresh
        0 app.state to=active
        0 app.state to=inactive
        0 app.state to=background
        0 sched.submit ident=com.example.feed.refresh type=refresh earliest=3600
        3 app.state to=suspended
        3600 sched.wait ident=com.example.feed.refresh reasons=scheduler
        15376.25 app.state to=background
        15376.25 sched.launch ident=com.example.feed.refresh run=1
        15376.25 sched.submit ident=com.example.feed.refresh type=refresh earliest=18976.25
        15376.25 sched.complete run=1 success=true
        15379.25 app.state to=suspended
        18976.25 sched.wait ident=com.example.feed.refresh reasons=scheduler

        """)
  }
}
