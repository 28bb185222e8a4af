// Off Apple platforms SwiftUI is only the test shim (Tests/AppleSDKShim), which the
// AppleAdapters check target compiles this file against with APPLE_SDK_SHIM set.
#if canImport(SwiftUI) && !os(macOS) && (canImport(Darwin) || APPLE_SDK_SHIM)
  public import SwiftUI
  #if APPLE_SDK_SHIM
    public import BackgroundTrace
  #endif

  extension Scene {
    /// SwiftUI's `backgroundTask(.appRefresh(identifier)) { … }`, with what SwiftUI does
    /// recorded through `runs` (``TracingTaskScheduler/swiftUIRuns``): the registration
    /// (`sched.register`, once), and for each launch `sched.launch`, `sched.expire` when
    /// the system cancels the action because the task's time ran out, and `sched.complete
    /// success=true` when the action returns. SwiftUI still registers, launches and
    /// completes the task itself; with `runs` `nil` this is SwiftUI's modifier alone.
    ///
    /// ```swift
    /// WindowGroup { ContentView() }
    ///   .backgroundTask(.appRefresh("com.example.refresh"), recordingWith: tracing?.swiftUIRuns) {
    ///     await refresh()
    ///   }
    /// ```
    ///
    /// - Parameters:
    ///   - task: the task kind: ``SwiftUIBackgroundTask/appRefresh(_:)``. The iOS 26 SDK
    ///     this adapter is built against has no `processingTask(_:)`, so a processing
    ///     kind (iOS 27) is registered through `appRefresh`; on iOS 27 use SwiftUI's
    ///     `.backgroundTask(.processingTask(…))` itself, which the simulation models as
    ///     ``SwiftUIBackgroundTask/processingTask(_:)``.
    ///   - runs: where the runs are recorded; `nil` records nothing.
    ///   - action: the app's action, as SwiftUI's modifier takes it.
    /// - Returns: the scene with SwiftUI's modifier applied.
    public nonisolated func backgroundTask(
      _ task: SwiftUIBackgroundTask, recordingWith runs: SwiftUIRunRecorder?,
      action: @escaping @Sendable () async -> Void
    ) -> some Scene {
      runs?.recordRegistration(task)
      return backgroundTask(.appRefresh(task.identifier)) {
        guard let runs else { return await action() }
        await runs.recordRun(of: task, action)
      }
    }

    /// SwiftUI's `backgroundTask(.urlSession(identifier)) { … }`, with what SwiftUI does
    /// recorded through `wakes` (``TracingBackgroundTransfers/swiftUIWakes``): each wake
    /// of a matching session as `net.wake` when SwiftUI runs the action, and
    /// `net.handler` when the action returns, which is when SwiftUI calls the wake's
    /// completion handler. An action that returns before the session's
    /// `urlSessionDidFinishEvents` shows as `net-handler-early`. With `wakes` `nil` this
    /// is SwiftUI's modifier alone.
    ///
    /// ```swift
    /// WindowGroup { ContentView() }
    ///   .backgroundTask(.urlSession("com.example.downloads"), recordingWith: transfers?.swiftUIWakes) {
    ///     await downloads.handleEvents()
    ///   }
    /// ```
    ///
    /// - Parameters:
    ///   - task: the sessions (``SwiftUIURLSessionTask/urlSession(_:)``,
    ///     ``SwiftUIURLSessionTask/urlSession``, ``SwiftUIURLSessionTask/urlSession(matching:)``).
    ///   - wakes: where the wakes are recorded; `nil` records nothing.
    ///   - action: the app's action, as SwiftUI's modifier takes it.
    /// - Returns: the scene with SwiftUI's modifier applied.
    public nonisolated func backgroundTask<Request: Sendable>(
      _ task: SwiftUIURLSessionTask<Request>, recordingWith wakes: SwiftUIWakeRecorder?,
      action: @escaping @Sendable (Request) async -> Void
    ) -> some Scene {
      // `.urlSession(matching:)` with the kind's own test: SwiftUI's kinds differ only in
      // which sessions they take and what the action gets, which `task` says.
      let request = task.request
      return backgroundTask(.urlSession(matching: task.matches)) { identifier in
        guard let wakes else { return await action(request(identifier)) }
        await wakes.recordWake(of: identifier) { await action(request(identifier)) }
      }
    }
  }
#endif
