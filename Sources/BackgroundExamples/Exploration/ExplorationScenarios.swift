import BackgroundSimulation
package import BackgroundTraceReplay

/// The scenarios `bgtrace explore` ships (docs/guides/exploration.md):
/// each seed example with its bug made timing-dependent, and its fixed variant, which
/// explores clean.
package enum ExplorationScenarios: Sendable {
  /// Every shipped scenario, each buggy one followed by its fixed variant.
  package static let all: [ExplorationScenario] = [
    DocumentSaveScenario.scenario(fixed: false),
    DocumentSaveScenario.scenario(fixed: true),
    CriticalSendScenario.scenario(fixed: false),
    CriticalSendScenario.scenario(fixed: true),
    SampleAppScenario.scenario(fixed: false),
    SampleAppScenario.scenario(fixed: true),
    BackgroundDownloadScenario.scenario(fixed: false),
    BackgroundDownloadScenario.scenario(fixed: true),
    BackgroundTransferScenario.scenario(fixed: false),
    BackgroundTransferScenario.scenario(fixed: true),
    SyncServiceScenario.scenario(fixed: false),
    SyncServiceScenario.scenario(fixed: true),
    NotificationRefreshScenario.scenario(fixed: false),
    NotificationRefreshScenario.scenario(fixed: true),
    LongUploadScenario.scenario(fixed: false),
    LongUploadScenario.scenario(fixed: true),
    ContinuedUploadScenario.scenario(fixed: false),
    ContinuedUploadScenario.scenario(fixed: true),
    SwiftUIDownloadScenario.scenario(fixed: false),
    SwiftUIDownloadScenario.scenario(fixed: true),
    ExposureTasksScenario.scenario(fixed: false),
    ExposureTasksScenario.scenario(fixed: true),
  ]

  /// The shipped scenario called `name`.
  package static func named(_ name: String) -> ExplorationScenario? {
    all.first { $0.name == name }
  }
}
