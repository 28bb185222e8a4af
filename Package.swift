// swift-tools-version:6.2
import PackageDescription

let package = Package(
  name: "BackgroundTrace",
  platforms: [.macOS(.v15), .iOS(.v18)],
  products: [
    .library(name: "BackgroundTrace", targets: ["BackgroundTrace"]),
    .library(name: "BackgroundTraceCheck", targets: ["BackgroundTraceCheck"]),
    .library(name: "BackgroundTraceTesting", targets: ["BackgroundTraceTesting"]),
    .library(name: "BackgroundTraceExport", targets: ["BackgroundTraceExport"]),
    .library(name: "BackgroundSimulation", targets: ["BackgroundSimulation"]),
    .library(name: "BackgroundTraceImport", targets: ["BackgroundTraceImport"]),
    .library(name: "BackgroundTraceReplay", targets: ["BackgroundTraceReplay"]),
    .executable(name: "bgtrace", targets: ["bgtrace"]),
    .executable(name: "bgtrace-bench", targets: ["bgtrace-bench"]),
  ],
  targets: [
    // The data structures the others specialize: hash tables, an interval set, a deadline
    // queue, a stable string hash. In no product; public and inlinable only so that other
    // modules specialize them (a `package` generic is not specialized across modules).
    .target(name: "_BackgroundTraceStorage"),

    // Events, the text and binary codecs and the recorder: what app code imports.
    .target(name: "BackgroundTrace", dependencies: ["_BackgroundTraceStorage"]),

    // Checker rules and the trace differ: pure, streaming.
    .target(name: "BackgroundTraceCheck", dependencies: ["BackgroundTrace", "_BackgroundTraceStorage"]),

    // Device logs (iOS's unified log, Android's logcat) read into traces: what
    // `bgtrace import` runs.
    .target(name: "BackgroundTraceImport", dependencies: ["BackgroundTrace", "_BackgroundTraceStorage"]),

    // Virtual clock, simulated platform, fault plans.
    .target(name: "BackgroundSimulation", dependencies: ["BackgroundTrace", "_BackgroundTraceStorage"]),

    // Replay and exploration: the simulation driven from a recorded trace or from a
    // stream of choices, its trace checked by the checker. Above both.
    .target(
      name: "BackgroundTraceReplay",
      dependencies: ["BackgroundTrace", "BackgroundTraceCheck", "BackgroundSimulation", "_BackgroundTraceStorage"]),

    // Sample apps: common background-task tutorials' code and public apps' code, ported to
    // the platform protocols; the demo's app and the shipped exploration scenarios.
    .target(
      name: "BackgroundExamples", dependencies: ["BackgroundTrace", "BackgroundSimulation", "BackgroundTraceReplay"]),

    // The timeline model and the exporters (SVG and HTML timelines, Chrome trace, JSON
    // Lines): what `bgtrace export` writes, for tests and users too.
    .target(name: "BackgroundTraceExport", dependencies: ["BackgroundTrace", "BackgroundTraceCheck"]),

    // Golden-trace assertions and exploration for Swift Testing and XCTest (Testing is
    // imported here only, never by the app product BackgroundTrace).
    .target(
      name: "BackgroundTraceTesting",
      dependencies: [
        "BackgroundTrace", "BackgroundTraceCheck", "BackgroundSimulation", "BackgroundTraceReplay",
        "BackgroundTraceExport",
      ]),

    // The command-line tool's logic: strict argument parsing and the commands.
    .target(
      name: "BackgroundTraceCLI",
      dependencies: [
        "BackgroundTrace", "BackgroundTraceCheck", "BackgroundSimulation", "BackgroundTraceReplay",
        "BackgroundExamples", "BackgroundTraceExport", "BackgroundTraceImport", "TraceWorkloads",
      ]),
    .executableTarget(name: "bgtrace", dependencies: ["BackgroundTraceCLI"], path: "Tools/bgtrace"),
    // Writes docs/rules.md from the rules' declarations (Tools/generate-docs.sh).
    .executableTarget(name: "bgtrace-docs", dependencies: ["BackgroundTraceCLI"], path: "Tools/bgtrace-docs"),

    // Synthetic, realistic traces for the benchmark and large-trace tests.
    .target(name: "TraceWorkloads", dependencies: ["BackgroundTrace"], path: "Tools/TraceWorkloads"),
    .executableTarget(
      name: "bgtrace-bench",
      dependencies: [
        "BackgroundTrace", "BackgroundTraceCheck", "BackgroundExamples", "BackgroundTraceCLI", "BackgroundTraceImport",
        "TraceWorkloads",
      ],
      path: "Tools/bgtrace-bench"
    ),

    // Records until killed: the child process of the recorder's crash test.
    .executableTarget(name: "record-child", dependencies: ["BackgroundTrace"], path: "Tools/record-child"),

    // What the test targets share: the repository's root, a temporary directory, a log imported in memory.
    .target(
      name: "TestSupport", dependencies: ["BackgroundTrace", "BackgroundTraceImport"], path: "Tests/TestSupport"),

    .testTarget(
      name: "BackgroundTraceTests", dependencies: ["BackgroundTrace", "TraceWorkloads", "record-child", "TestSupport"]),
    .testTarget(
      name: "BackgroundTraceCheckTests",
      dependencies: ["BackgroundTraceCheck", "TraceWorkloads", "_BackgroundTraceStorage", "TestSupport"]
    ),
    .testTarget(
      name: "BackgroundSimulationTests",
      dependencies: [
        "BackgroundSimulation", "BackgroundTraceReplay", "BackgroundExamples", "BackgroundTraceCheck",
        "BackgroundTraceTesting", "TestSupport",
      ]),
    .testTarget(
      name: "BackgroundTraceReplayTests",
      dependencies: [
        "BackgroundTraceReplay", "BackgroundSimulation", "BackgroundExamples", "BackgroundTraceCheck",
        "BackgroundTraceTesting", "TestSupport",
      ]),
    .testTarget(
      name: "BackgroundTraceTestingTests", dependencies: ["BackgroundTraceTesting", "BackgroundTraceExport"],
      exclude: ["__Traces__"]),
    .testTarget(
      name: "BackgroundTraceExportTests",
      dependencies: ["BackgroundTraceExport", "BackgroundTrace", "BackgroundTraceCLI", "TestSupport"]),
    .testTarget(
      name: "BackgroundTraceImportTests", dependencies: ["BackgroundTraceImport", "BackgroundTrace", "TestSupport"]),
    .testTarget(
      name: "BackgroundTraceCLITests",
      dependencies: [
        "BackgroundTraceCLI", "BackgroundTrace", "BackgroundTraceCheck", "BackgroundTraceImport", "bgtrace",
        "TestSupport",
      ]),
  ]
)

// The Apple adapters (Sources/BackgroundTrace/Apple) compiled on Linux against a shim of the
// SDK surface they use. AppleAdapters' sources are symlinks to the real adapter files,
// built with APPLE_SDK_SHIM so their `#if canImport(UIKit)` holds there and nowhere else.
// Only on Linux: on Apple platforms targets named UIKit and BackgroundTasks would clash with
// the SDK. No product contains these targets.
#if os(Linux)
  package.targets += [
    .target(name: "UIKit", path: "Tests/AppleSDKShim/UIKit"),
    .target(name: "BackgroundTasks", path: "Tests/AppleSDKShim/BackgroundTasks"),
    .target(name: "SwiftUI", path: "Tests/AppleSDKShim/SwiftUI"),
    .target(
      name: "AppleAdapters", dependencies: ["BackgroundTrace", "UIKit", "BackgroundTasks", "SwiftUI"],
      path: "Tests/AppleAdapterCheck/Adapters", swiftSettings: [.define("APPLE_SDK_SHIM")]),
    // Testing declares a cross-import overlay for UIKit (`_Testing_UIKit`) that the
    // toolchain ships only on Apple platforms; with the shim's UIKit beside Testing the
    // compiler asks for it, and finds this empty module.
    .target(name: "_Testing_UIKit", path: "Tests/AppleSDKShim/_Testing_UIKit"),
    .testTarget(
      name: "AppleAdapterTests",
      dependencies: [
        "AppleAdapters", "BackgroundTrace", "BackgroundSimulation", "BackgroundTraceReplay", "UIKit",
        "BackgroundTasks", "SwiftUI",
        "_Testing_UIKit",
      ],
      path: "Tests/AppleAdapterCheck/Tests"),
  ]
#endif

// Strict settings for every target, in one place. No unsafe flags: SwiftPM refuses a
// package that has them as a versioned dependency.
for target in package.targets {
  var settings = target.swiftSettings ?? []
  settings.append(contentsOf: [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .swiftLanguageMode(.v6),
  ])
  // Every public type of a library says whether it is Sendable (a warning group SwiftPM
  // controls safely, unlike the old -require-explicit-sendable flag, which Swift 6 mode
  // ignores); SwiftPM drops warning settings when the package is someone's dependency.
  if target.type == .regular {
    settings.append(.treatWarning("ExplicitSendable", as: .error))
  }
  target.swiftSettings = settings
}
