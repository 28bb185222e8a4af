import BackgroundTasks
import Foundation
import Testing

/// Defaults the SDK shim (Tests/AppleSDKShim) declares, checked against Apple's headers.
@Suite struct SDKShimDeclarationTests {
  /// BGTaskRequest.h: `BGHealthResearchTaskRequest : BGProcessingTaskRequest`, whose
  /// `protectionTypeOfRequiredData` "defaults to
  /// `NSFileProtectionCompleteUntilFirstUserAuthentication`" (Apple:
  /// https://developer.apple.com/documentation/backgroundtasks/bghealthresearchtaskrequest).
  @Test func aHealthResearchRequestIsAProcessingRequestThatNeedsDataAfterFirstUnlock() {
    let request = BGHealthResearchTaskRequest(identifier: "study.upload")
    let processing: BGProcessingTaskRequest = request
    #expect(processing.identifier == "study.upload")
    #expect(!processing.requiresNetworkConnectivity)
    #expect(!processing.requiresExternalPower)
    #expect(request.protectionTypeOfRequiredData == .completeUntilFirstUserAuthentication)
    request.protectionTypeOfRequiredData = .complete
    #expect(request.protectionTypeOfRequiredData == .complete)
  }

  /// BGTaskScheduler.h, iOS 26.0 SDK, `getPendingTaskRequestsWithCompletionHandler:`: "The
  /// objects passed in the array are copies of the existing requests. Changing the
  /// attributes of a request has no effect."
  @Test func pendingRequestsAreCopies() async throws {
    let scheduler = BGTaskScheduler()
    let request = BGProcessingTaskRequest(identifier: "com.example.cleanup")
    request.requiresExternalPower = true
    try scheduler.submit(request)
    let pending = try #require(await scheduler.pendingTaskRequests().first as? BGProcessingTaskRequest)
    #expect(pending !== request)
    #expect(pending.identifier == "com.example.cleanup" && pending.requiresExternalPower)
    pending.requiresExternalPower = false
    #expect(request.requiresExternalPower)
  }

  /// BGTask.h, iOS 26.0 SDK: `@interface BGHealthResearchTask : BGProcessingTask`
  /// (iOS 17), the task a `BGHealthResearchTaskRequest` launches.
  @Test func aHealthResearchRequestLaunchesAHealthResearchTask() throws {
    let scheduler = BGTaskScheduler()
    var launched: BGTask?
    scheduler.register(forTaskWithIdentifier: "study.upload", using: nil) { launched = $0 }
    try scheduler.submit(BGHealthResearchTaskRequest(identifier: "study.upload"))
    scheduler.launch("study.upload")
    let task = try #require(launched)
    #expect(task is BGHealthResearchTask && task is BGProcessingTask)
  }

  /// The adapters compiled here are the library's own (Sources/BackgroundTrace/Apple):
  /// each file of Tests/AppleAdapterCheck/Adapters is a symlink to the file of the same
  /// name there, so a copy that drifts from it is checked in its stead only if this fails.
  @Test func theAdaptersCheckedAreTheLibrarys() throws {
    let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    let adapters = tests.appendingPathComponent("Adapters")
    let library = tests.deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Sources/BackgroundTrace/Apple")
    let names = try FileManager.default.contentsOfDirectory(atPath: library.path).sorted()
    #expect(try FileManager.default.contentsOfDirectory(atPath: adapters.path).sorted() == names)
    for name in names {
      let checked = try Data(contentsOf: adapters.appendingPathComponent(name))
      #expect(checked == (try Data(contentsOf: library.appendingPathComponent(name))), "\(name)")
    }
  }

  /// BGTask.h and BGTaskRequest.h, iOS 26.0 SDK: the continued-processing classes are
  /// `API_AVAILABLE(ios(26.0))`, and the package runs from iOS 18 (Package.swift), so on
  /// a device every adapter line that names one needs an `@available(iOS 26.0, *)` or
  /// `#available(iOS 26.0, *)` in its declaration. Linux does not enforce the shim's
  /// `@available(iOS …)`, so this reads the adapter: a use more than a few lines below
  /// the last availability guard is reported with its line. Before this check the
  /// adapter named the classes with no guard at all, which does not compile for iOS 18.
  @Test func theAdaptersGuardTheIOS26API() throws {
    let adapters = URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent()  // SDKShimDeclarationTests.swift
      .deletingLastPathComponent()  // Tests
      .appendingPathComponent("Adapters")
    let files = try FileManager.default.contentsOfDirectory(atPath: adapters.path).sorted()
    #expect(files.contains("BackgroundTasksScheduler.swift"))
    var unguarded: [String] = []
    for file in files {
      let text = try String(contentsOf: adapters.appendingPathComponent(file), encoding: .utf8)
      var lastGuard: Int?
      for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
        let code = line.trimmingCharacters(in: .whitespaces)
        if code.contains("available(iOS 26.0, *)") { lastGuard = number }
        guard !code.hasPrefix("//"), code.contains("BGContinuedProcessing") else { continue }
        if let lastGuard, number - lastGuard <= 12 { continue }
        unguarded.append("\(file):\(number + 1)")
      }
    }
    #expect(unguarded == [])
  }

  /// Every declaration of the shim cites where it comes from: its header (a `.h` file,
  /// with the SDK it is from) for BackgroundTasks and UIKit, Apple's documentation page
  /// for SwiftUI, which has no headers; or it says it is the fake's (`Fake`, and the
  /// files of the fake's controls). A declaration's comment block is the `///` and
  /// attribute lines right above it.
  @Test func everyShimDeclarationCitesItsSource() throws {
    let shim = URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent()  // SDKShimDeclarationTests.swift
      .deletingLastPathComponent()  // Tests
      .deletingLastPathComponent()  // AppleAdapterCheck
      .appendingPathComponent("AppleSDKShim")
    var uncited: [String] = []
    var declarations = 0
    for module in ["BackgroundTasks", "UIKit", "SwiftUI"] {
      let directory = shim.appendingPathComponent(module)
      for file in try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
      where !file.contains("Fake") {
        let lines = try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
          .split(separator: "\n", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        for (number, line) in lines.enumerated() where line.hasPrefix("public ") || line.hasPrefix("open ") {
          declarations += 1
          let block = lines[..<number].reversed().prefix { $0.hasPrefix("//") || $0.hasPrefix("@") }.joined(
            separator: " ")
          let cited =
            block.contains("Fake")
            || (module == "SwiftUI" ? block.contains("developer.apple.com") : block.contains(".h"))
          if !cited { uncited.append("\(module)/\(file):\(number + 1)") }
        }
      }
    }
    #expect(declarations > 50)
    #expect(uncited == [])
  }
}
