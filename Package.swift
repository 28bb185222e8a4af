// swift-tools-version:6.0
import PackageDescription

let package = Package(
  name: "BackgroundTrace",
  platforms: [.macOS(.v15), .iOS(.v18)],
  products: [
    .library(name: "BackgroundTrace", targets: ["BackgroundTrace"]),
    .library(name: "BackgroundTraceCheck", targets: ["BackgroundTraceCheck"]),
    .library(name: "BackgroundTraceTesting", targets: ["BackgroundTraceTesting"]),
    .library(name: "BackgroundSimulation", targets: ["BackgroundSimulation"]),
    .executable(name: "bgtrace", targets: ["bgtrace"]),
    .executable(name: "bgtrace-bench", targets: ["bgtrace-bench"]),
  ],
  targets: [
    // Events, the text and binary codecs and the recorder: what app code imports.
    .target(name: "BackgroundTrace"),

    // Checker rules and the trace differ: pure, streaming.
    .target(name: "BackgroundTraceCheck", dependencies: ["BackgroundTrace"]),

    // Virtual clock, simulated platform, fault plans.
    .target(name: "BackgroundSimulation", dependencies: ["BackgroundTrace", "BackgroundTraceCheck"]),

    // The seed articles' code ported to the platform protocols: the sample app.
    .target(name: "BackgroundExamples", dependencies: ["BackgroundTrace", "BackgroundSimulation"]),

    // Golden-trace assertions for Swift Testing and XCTest.
    .target(name: "BackgroundTraceTesting", dependencies: ["BackgroundTrace", "BackgroundTraceCheck"]),

    // The command-line tool's logic: strict argument parsing and the commands.
    .target(
      name: "BackgroundTraceCLI",
      dependencies: [
        "BackgroundTrace", "BackgroundTraceCheck", "BackgroundSimulation", "BackgroundExamples", "TraceWorkloads",
      ]),
    .executableTarget(name: "bgtrace", dependencies: ["BackgroundTraceCLI"], path: "Tools/bgtrace"),

    // Synthetic, realistic traces for the benchmark and large-trace tests.
    .target(name: "TraceWorkloads", dependencies: ["BackgroundTrace"], path: "Tools/TraceWorkloads"),
    .executableTarget(
      name: "bgtrace-bench",
      dependencies: [
        "BackgroundTrace", "BackgroundTraceCheck", "BackgroundExamples", "BackgroundTraceCLI", "TraceWorkloads",
      ],
      path: "Tools/bgtrace-bench"
    ),

    // Records until killed: the child process of the recorder's crash test.
    .executableTarget(name: "record-child", dependencies: ["BackgroundTrace"], path: "Tools/record-child"),

    .testTarget(name: "BackgroundTraceTests", dependencies: ["BackgroundTrace", "TraceWorkloads", "record-child"]),
    .testTarget(name: "BackgroundTraceCheckTests", dependencies: ["BackgroundTraceCheck", "TraceWorkloads"]),
    .testTarget(
      name: "BackgroundSimulationTests",
      dependencies: ["BackgroundSimulation", "BackgroundExamples", "BackgroundTraceCheck", "BackgroundTraceTesting"]),
    .testTarget(name: "BackgroundTraceTestingTests", dependencies: ["BackgroundTraceTesting"], exclude: ["__Traces__"]),
    .testTarget(
      name: "BackgroundTraceCLITests",
      dependencies: ["BackgroundTraceCLI", "BackgroundTrace", "BackgroundTraceCheck", "bgtrace"]),
  ]
)

// Strict settings for every target, in one place.
let strict = Context.environment["BGTRACE_STRICT"] != nil
for target in package.targets {
  var settings = target.swiftSettings ?? []
  settings.append(contentsOf: [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .swiftLanguageMode(.v6),
  ])
  // SwiftPM refuses unsafe flags in a package used as a versioned dependency, so the
  // explicit-Sendable check runs only where BGTRACE_STRICT is set (CI sets it).
  if strict && target.type != .test && target.type != .executable {
    settings.append(.unsafeFlags(["-require-explicit-sendable"]))
  }
  target.swiftSettings = settings
}
