import BackgroundTasks
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
}
