import XCTest

// docs/guides/capturing.md, "From UI tests": the UI test's lines, compiled (the snippet
// test checks that the guide's text is this file's). XCTest's UI testing is not on
// Linux, so `XCUIApplication` here is a stand-in with the members the snippet uses, as
// Apple declares them (developer.apple.com/documentation/xctest/xcuiapplication:
// `var launchEnvironment: [String : String]`, `func launch()`).

/// A stand-in for XCTest's `XCUIApplication`: it records what the test sets.
final class XCUIApplication {
  /// The environment of the last launch, for the test below to look at.
  nonisolated(unsafe) static var launchedEnvironment: [String: String]?
  var launchEnvironment: [String: String] = [:]
  func launch() { Self.launchedEnvironment = launchEnvironment }
}

final class SaveUITests: XCTestCase {
  // UI test
  func testSaveInTheBackground() {
    let app = XCUIApplication()
    app.launchEnvironment["BGTRACE_OUTPUT"] = "save-in-background-%p.bgtrace"
    app.launchEnvironment["BGTRACE_TEST"] = name
    app.launch()
    // … drive the app, send it to the background with XCUIDevice.shared.press(.home)
  }

  func testTheLaunchEnvironmentNamesTheFileAndTheTest() {
    testSaveInTheBackground()
    XCTAssertEqual(XCUIApplication.launchedEnvironment?["BGTRACE_OUTPUT"], "save-in-background-%p.bgtrace")
    XCTAssertEqual(XCUIApplication.launchedEnvironment?["BGTRACE_TEST"], name)
  }
}
