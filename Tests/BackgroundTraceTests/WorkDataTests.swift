import BackgroundTrace
import Testing

/// androidx `Data` and its input mergers, each test following the androidx test it
/// names (`work/work-runtime/src/test/java/androidx/work/OverwritingInputMergerTest.java`,
/// `ArrayCreatingInputMergerTest.java`, `DataTest.java`); sizes worked out by hand from
/// `Data.toByteArrayInternalV1`.
@Suite struct WorkDataTests {
  // MARK: OverwritingInputMergerTest

  @Test func testMergeSingleArgument() throws {
    let output = try InputMerger.overwriting.merge([["key": .string("value")]])
    #expect(output.count == 1)
    #expect(output["key"] == .string("value"))
  }

  /// A later input's value overwrites an earlier one's.
  @Test func testMergeMultipleArguments() throws {
    let input1: WorkData = ["key1": .string("value1"), "key2": .string("value2")]
    let input2: WorkData = ["key1": .string("value1a"), "key3": .string("value3")]
    let output = try InputMerger.overwriting.merge([input1, input2])
    #expect(output.count == 3)
    #expect(output["key1"] == .string("value1a"))
    #expect(output["key2"] == .string("value2"))
    #expect(output["key3"] == .string("value3"))
  }

  // MARK: ArrayCreatingInputMergerTest

  private let withIntArray: WorkData = ["key": .ints([0, 1, 2])]
  private let withInt: WorkData = ["key": .int(3)]
  private let withLong: WorkData = ["key": .long(Int64.max)]

  @Test func arrayCreatingTestMergeSingleArgument() throws {
    let output = try InputMerger.arrayCreating.merge([withInt])
    #expect(output.count == 1)
    #expect(output["key"] == .ints([3]))
  }

  @Test func testMergeConcatenatesNonArrays() throws {
    let output = try InputMerger.arrayCreating.merge([withInt, withInt])
    #expect(output.count == 1)
    #expect(output["key"] == .ints([3, 3]))
  }

  @Test func testMergeConcatenatesArrays() throws {
    let output = try InputMerger.arrayCreating.merge([withIntArray, withIntArray])
    #expect(output["key"] == .ints([0, 1, 2, 0, 1, 2]))
  }

  @Test func testMergeConcatenatesArrayAndPrimitive() throws {
    let output = try InputMerger.arrayCreating.merge([withIntArray, withInt])
    #expect(output["key"] == .ints([0, 1, 2, 3]))
  }

  /// androidx throws `IllegalArgumentException` for an int and a long under one key.
  @Test func testMergeThrowsIllegalArgumentExceptionOnDifferentTypes() {
    #expect(throws: InputMergeError(key: "key")) { try InputMerger.arrayCreating.merge([withInt, withLong]) }
  }

  /// A `null` counts as a string.
  @Test func testMergeNulls() throws {
    func merge(_ a: WorkData.Value, _ b: WorkData.Value) throws -> WorkData.Value? {
      try InputMerger.arrayCreating.merge([["a": a], ["a": b]])["a"]
    }
    #expect(try merge(.string(nil), .string(nil)) == .strings([nil, nil]))
    #expect(try merge(.string("b"), .string(nil)) == .strings(["b", nil]))
    #expect(try merge(.string(nil), .string("b")) == .strings([nil, "b"]))
    #expect(try merge(.strings(["b", "c"]), .string(nil)) == .strings(["b", "c", nil]))
    #expect(try merge(.string(nil), .strings(["b", "c"])) == .strings([nil, "b", "c"]))
  }

  // MARK: DataTest and the serialized size

  /// `testSerializePastMaxSize`: an int array of `MAX_DATA_BYTES + 1` ints is refused.
  /// 8 (header and count) + 1 (type) + 4 (count) + 4 × 10241 + 2 + 7 ("payload") = 40986.
  @Test func testSerializePastMaxSize() {
    let data: WorkData = ["payload": .ints(Array(repeating: 0, count: WorkData.maxBytes + 1))]
    #expect(data.serializedSize == 40_986)
    #expect(!data.fitsWorkManager)
  }

  /// One string of N ASCII characters under key `k` takes 8 + 1 + (2 + N) + (2 + 1):
  /// 14 + N bytes, so N = 10226 is the most that fits (androidx checks `<=`).
  @Test func theLimitIsInclusive() {
    let fits: WorkData = ["k": .string(String(repeating: "a", count: 10_226))]
    let over: WorkData = ["k": .string(String(repeating: "a", count: 10_227))]
    #expect(fits.serializedSize == 10_240)
    #expect(fits.fitsWorkManager)
    #expect(over.serializedSize == 10_241)
    #expect(!over.fitsWorkManager)
  }

  /// Strings count as `DataOutputStream.writeUTF` writes them, modified UTF-8 per UTF-16
  /// unit: `é` 2 bytes, `€` 3, `😀` (two units) 6, NUL 2; a null value only its type
  /// byte; a null element of a string array androidx's 55-character stand-in.
  @Test func stringsCountAsModifiedUTF8() {
    func size(_ value: WorkData.Value) -> Int { WorkData(["k": value]).serializedSize - 12 }  // 8 + 1 + 3
    #expect(size(.string("é")) == 2 + 2)
    #expect(size(.string("€")) == 2 + 3)
    #expect(size(.string("😀")) == 2 + 6)
    #expect(size(.string("\u{0}")) == 2 + 2)
    #expect(size(.string(nil)) == 0)
    #expect(size(.strings(["a", nil])) == 4 + 3 + 57)
    #expect(size(.long(1)) == 8)
    #expect(size(.booleans([true, false])) == 4 + 2)
    #expect(WorkData.empty.serializedSize == 8)
  }

  /// A request whose input WorkManager cannot take is refused when it is enqueued:
  /// `Data.Builder.build()` throws `IllegalStateException` before the request has it.
  @Test func inputDataOverTheLimitIsRefused() {
    var request = WorkRequest(work: "w", worker: NoWorker())
    request.inputData = ["k": .string(String(repeating: "a", count: 10_227))]
    #expect(throws: WorkRequestError(.inputDataTooLarge, work: "w")) { try request.validate() }
    #expect(WorkRequestCheck.inputDataTooLarge.message == "Data cannot occupy more than 10240 bytes when serialized")
    #expect(WorkRequestCheck.inputDataTooLarge.exception == "IllegalStateException")
  }
}

private struct NoWorker: BackgroundWorker {
  func doWork(_ context: WorkContext) async -> WorkResult { .success }
}
