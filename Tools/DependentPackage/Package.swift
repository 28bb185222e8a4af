// swift-tools-version:6.0
// A package as an app team writes it: it depends on BackgroundTrace's latest release
// by its commit, puts the recording library into its app code and the simulation and
// checker into its tests. Tools/check-dependent-package.sh points BGTRACE_PACKAGE_URL at
// a clone of the checkout: it builds this manifest as written, then runs `swift test`
// with the dependency on the checkout's HEAD by version, as CI does. README.md's
// "Installing" and docs/guides/golden-traces.md show this manifest's dependencies and
// targets (a test keeps them the same).
import PackageDescription

let backgroundTrace = Context.environment["BGTRACE_PACKAGE_URL"] ?? "https://example.invalid/set-BGTRACE_PACKAGE_URL"

let package = Package(
  name: "DraftSync",
  platforms: [.macOS(.v15), .iOS(.v18)],  // at least BackgroundTrace's, or a Mac build fails
  dependencies: [
    .package(url: backgroundTrace, revision: "e452c888dae63d1f39b111e7c11c93bcd2bd5b03")  // 0.2.0
  ],
  targets: [
    // The app's code: the protocols, the tracing wrappers and the recorder.
    .target(
      name: "DraftSync",
      dependencies: [.product(name: "BackgroundTrace", package: "BackgroundTrace")]),
    // Its tests: the simulation, the checker and golden traces.
    .testTarget(
      name: "DraftSyncTests",
      dependencies: [
        "DraftSync",
        .product(name: "BackgroundSimulation", package: "BackgroundTrace"),
        .product(name: "BackgroundTraceCheck", package: "BackgroundTrace"),
        .product(name: "BackgroundTraceReplay", package: "BackgroundTrace"),
        .product(name: "BackgroundTraceTesting", package: "BackgroundTrace"),
      ],
      exclude: ["__Traces__"]),  // golden traces: read by the tests, not built
  ]
)
