// The names these types had in 0.1.0, kept for one minor release so that code written
// against 0.1.0 compiles with a fix-it (CHANGELOG.md, "Changes a test may notice").
// Generic names clash in app code: FirebasePerformance has a `Trace`, and many apps an
// `AppState` or a `Worker`.

/// The name ``RecordedTrace`` had in 0.1.0.
@available(*, deprecated, renamed: "RecordedTrace")
public typealias Trace = RecordedTrace

/// The name ``AppLifecycleState`` had in 0.1.0.
@available(*, deprecated, renamed: "AppLifecycleState")
public typealias AppState = AppLifecycleState

/// The name ``BackgroundWorker`` had in 0.1.0.
@available(*, deprecated, renamed: "BackgroundWorker")
public typealias Worker = BackgroundWorker
