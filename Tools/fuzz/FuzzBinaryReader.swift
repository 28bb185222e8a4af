// libFuzzer target for the trace readers. Built by Tools/fuzz/run.sh together with
// the BackgroundTrace sources (one module), so it needs no SwiftPM support for fuzzing.
//
// Properties checked on every input, besides "never crash, hang or over-allocate":
// - the binary reader reports damage instead of failing, except for a wrong magic or
//   version;
// - whatever it recovers re-encodes and decodes back to the same events.

/// libFuzzer's entry point: reads one input with the binary reader and with
/// ``TraceReader``, and traps when what the binary reader recovers does not re-encode
/// to the same events.
///
/// - Parameters:
///   - start: the input's first byte; may be `nil` for an empty input.
///   - count: how many bytes the input has.
/// - Returns: 0, as libFuzzer requires.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBinaryReader(_ start: UnsafeRawPointer?, _ count: Int) -> Int32 {
  let bytes = start.map { Array(UnsafeRawBufferPointer(start: $0, count: count)) } ?? []
  checkBinary(bytes)
  checkAnyForm(bytes)
  return 0
}

private func checkBinary(_ bytes: [UInt8]) {
  guard let (trace, _) = try? Trace.decode(binary: bytes, file: "fuzz") else { return }
  guard let again = try? trace.binary(), let (back, damage) = try? Trace.decode(binary: again) else {
    fatalError("a recovered trace failed to re-encode")
  }
  precondition(damage.isEmpty && back == trace, "re-encoding a recovered trace changed it")
}

private func checkAnyForm(_ bytes: [UInt8]) {
  guard var reader = try? TraceReader(source: MemoryByteSource(bytes), name: "fuzz") else { return }
  var count = 0
  while let located = try? reader.next() {
    count += 1
    precondition(located.location > 0)
  }
  _ = count
}
