import BackgroundTrace
import Dispatch
import Foundation
import Synchronization
import TraceWorkloads

/// The recorder's figures for the summary.
struct RecorderFigures {
  /// The in-memory recorder's cost per event as a multiple of the baseline.
  var memory: Double
  /// The durable streaming recorder's cost per event (close included) as a multiple of the baseline.
  var durable: Double
  /// Events per second from two threads over events per second from one.
  var twoThreads: Double
}

/// The recorder's cost per event against a bare append plus a clock read, in memory and
/// streaming durably to a file, and its throughput from two threads against one.
func runRecorderBenchmark(_ options: Options) throws -> RecorderFigures {
  // Recorder cost per event vs the floor: a clock read and an append of the element the
  // recorder stores (a `TraceEvent`) into an array with its capacity reserved, so the
  // baseline costs the same per event at any number of events (growing it would copy
  // and fault in fresh pages, more per event the longer the run). A bare clock read is
  // shown beside it.
  print("\n[recorder] events cycled from a virtual-clock workload, on a heap that keeps freed memory")
  keepFreedMemory()
  let sample = WorkloadGenerator.trace(eventCount: 100_000, seed: 7).events.map(\.kind)
  let recordCount = options.events
  // The clock read the recorder itself makes for `ContinuousClock` (RecorderClock).
  func nanoseconds() -> UInt64 {
    #if os(Linux)
      var spec = timespec()
      clock_gettime(CLOCK_BOOTTIME, &spec)
      return UInt64(spec.tv_sec) &* 1_000_000_000 &+ UInt64(spec.tv_nsec)
    #else
      return clock_gettime_nsec_np(CLOCK_UPTIME_RAW)
    #endif
  }
  var sink = ContiguousArray<TraceEvent>()
  sink.reserveCapacity(recordCount)
  func baseline(_ count: Int) -> Double {
    measure {
      sink.removeAll(keepingCapacity: true)
      for index in 0..<count {
        sink.append(TraceEvent(time: TraceTime(nanoseconds: nanoseconds()), sample[index % sample.count]))
      }
    }
  }
  var clockSum: UInt64 = 0
  let clockNanos = measure {
    for _ in 0..<recordCount { clockSum &+= nanoseconds() }
  }
  precondition(clockSum != 1)
  let fifthNanos = baseline(recordCount / 5) * 5
  // Wall time (best of three) decides; CPU time (the mean of the three) is printed beside
  // it, as it hardly depends on what else the machine runs.
  var cpuStart = processCPUNanoseconds()
  let baselineNanos = baseline(recordCount)
  let baselineCPU = (processCPUNanoseconds() - cpuStart) / 3
  cpuStart = processCPUNanoseconds()
  let memoryNanos = measure {
    let recorder = TraceRecorder()
    for index in 0..<recordCount { recorder.record(sample[index % sample.count]) }
    precondition(recorder.eventCount == recordCount)
  }
  let memoryCPU = (processCPUNanoseconds() - cpuStart) / 3
  cpuStart = processCPUNanoseconds()
  let path = FileManager.default.temporaryDirectory.appendingPathComponent("bgtrace-bench-\(getpid()).bgtrace").path
  var closeNanos = Double.infinity
  let streamingNanos = try measure {
    let recorder = try TraceRecorder(writingTo: path, replacing: true)
    for index in 0..<recordCount { recorder.record(sample[index % sample.count]) }
    let start = DispatchTime.now().uptimeNanoseconds
    try recorder.close()  // seals, truncates and fsyncs
    closeNanos = min(closeNanos, Double(DispatchTime.now().uptimeNanoseconds - start))
  }
  let streamingCPU = (processCPUNanoseconds() - cpuStart) / 3
  let streamedSize = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
  try? FileManager.default.removeItem(atPath: path)
  let baselinePer = baselineNanos / Double(recordCount)
  row(
    "baseline: clock read + reserved append", "\(format(baselinePer)) ns/event",
    "CPU \(format(baselineCPU / Double(recordCount))) ns/event; at \(recordCount / 5) events "
      + "\(format(fifthNanos / Double(recordCount))) ns/event")
  row("  of which the clock read alone", "\(format(clockNanos / Double(recordCount))) ns/event")
  row(
    "TraceRecorder, in memory", "\(format(memoryNanos / Double(recordCount))) ns/event",
    "\(format(memoryNanos / baselineNanos, 2))x baseline; CPU \(format(memoryCPU / baselineCPU, 2))x")
  row(
    "TraceRecorder, durable streaming to a file", "\(format(streamingNanos / Double(recordCount))) ns/event",
    "\(format(streamingNanos / baselineNanos, 2))x baseline; CPU \(format(streamingCPU / baselineCPU, 2))x; \(format(Double(streamedSize) / Double(recordCount), 2)) B/event on disk"
  )
  row("  of which close() with its fsync", "\(format(closeNanos / 1e6, 1)) ms (best run)")

  // Throughput from 2 threads vs 1 into one in-memory recorder.
  // Each thread records its own copy of the sample (decoded afresh, so no string is
  // shared): threads that share heap strings contend on their reference counts in
  // every copy, which is not the recorder's cost. (String literals, what apps mostly
  // record, have no reference count at all.)
  let workload = try RecordedTrace(events: sample.map { TraceEvent(time: .zero, $0) }).binary()
  let samples = try (0..<2).map { _ in try RecordedTrace.decode(binary: workload).trace.events.map(\.kind) }
  /// Events per second (best of five: on a shared machine the second core is not always
  /// free) and, for that run, the cores the process kept busy (CPU time over wall time).
  ///
  /// Every thread is started afresh and waits at a gate, so the clock runs only while
  /// all of them record, and one thread and two are measured alike. (Dispatch's
  /// `concurrentPerform` ran both halves on the calling thread when its pool was slow to
  /// wake a worker: 1.07x with 1.08 cores busy, the pool's figure, not the recorder's.)
  func recordConcurrently(threads: Int) -> (eventsPerSecond: Double, cores: Double) {
    let perThread = recordCount / threads
    var best = (nanos: Double.infinity, cores: 0.0)
    for _ in 0..<5 {
      let recorder = TraceRecorder()
      let run = GatedThreads(count: threads) { thread in
        let sample = samples[thread]
        for index in 0..<perThread { recorder.record(sample[index % sample.count]) }
      }
      let cpuStart = processCPUNanoseconds()
      let nanos = run.time()
      let cpu = processCPUNanoseconds() - cpuStart
      precondition(recorder.eventCount == perThread * threads)
      if nanos < best.nanos { best = (nanos, cpu / nanos) }
    }
    return (Double(perThread * threads) / (best.nanos / 1e9), best.cores)
  }
  let oneThread = recordConcurrently(threads: 1)
  let twoThreads = recordConcurrently(threads: 2)
  row(
    "recording, 1 thread", "\(format(oneThread.eventsPerSecond / 1e6, 2)) M events/s",
    "\(format(oneThread.cores, 2)) cores busy")
  row(
    "recording, 2 threads", "\(format(twoThreads.eventsPerSecond / 1e6, 2)) M events/s",
    "\(format(twoThreads.eventsPerSecond / oneThread.eventsPerSecond, 2))x one thread, \(format(twoThreads.cores, 2)) cores busy"
  )
  return RecorderFigures(
    memory: memoryNanos / baselineNanos, durable: streamingNanos / baselineNanos,
    twoThreads: twoThreads.eventsPerSecond / oneThread.eventsPerSecond)
}

/// Has glibc keep freed memory for reuse instead of returning it to the kernel, as the
/// heap of an app that has been running a while holds it.
///
/// Each run records a million events into fresh memory. By default glibc returns a
/// freed run's memory at once on some heaps and not on others (the main thread's,
/// a worker's), so a run either faults in and zeroes new pages or reuses warm ones:
/// the same recorder then measured 12 or 18.5 M events/s on one thread, and the
/// two-thread figure swung between 1.07x and 2.75x with it. The baseline gets the
/// same heap.
func keepFreedMemory() {
  #if canImport(Glibc)
    _ = mallopt(-1, Int32.max)  // M_TRIM_THRESHOLD: never trim
    _ = mallopt(-3, 32 << 20)  // M_MMAP_THRESHOLD: its maximum, so blocks come from the heap
  #endif
}

#if canImport(Glibc)
  /// glibc's `mallopt` (malloc.h, which the Glibc module does not import).
  @_silgen_name("mallopt") private func mallopt(_ parameter: Int32, _ value: Int32) -> Int32
#endif

/// Threads that each run `body(index)` at once: they are created first and wait at a
/// gate, which ``time()`` opens and then waits for all of them to finish.
private final class GatedThreads: @unchecked Sendable {
  private let body: @Sendable (Int) -> Void
  private let ready = Atomic<Int>(0)
  private let open = Atomic<Bool>(false)
  private var threads: [pthread_t] = []

  init(count: Int, _ body: @escaping @Sendable (Int) -> Void) {
    self.body = body
    for index in 0..<count {
      let box = Unmanaged.passRetained(Start(index: index, owner: self)).toOpaque()
      var thread = pthread_t()
      let status = pthread_create(
        &thread, nil,
        { raw in
          let start = Unmanaged<Start>.fromOpaque(raw!).takeRetainedValue()
          pinToCore(start.index)
          start.owner.ready.add(1, ordering: .releasing)
          while !start.owner.open.load(ordering: .acquiring) { sched_yield() }
          start.owner.body(start.index)
          return nil
        }, box)
      precondition(status == 0, "pthread_create failed: \(status)")
      threads.append(thread)
    }
    while ready.load(ordering: .acquiring) < count { sched_yield() }
  }

  /// Opens the gate and returns the nanoseconds until every thread has finished.
  func time() -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    open.store(true, ordering: .releasing)
    for thread in threads { pthread_join(thread, nil) }
    return Double(DispatchTime.now().uptimeNanoseconds - start)
  }

  private final class Start {
    let index: Int
    let owner: GatedThreads
    init(index: Int, owner: GatedThreads) {
      self.index = index
      self.owner = owner
    }
  }
}

/// Keeps the calling thread on core `index` (modulo the cores there are), so the threads
/// run side by side from the first event: the scheduler otherwise may start both on one
/// core, behind other work, and move one only after several milliseconds, a fair part
/// of a run.
private func pinToCore(_ index: Int) {
  #if os(Linux)
    let cores = Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))
    guard cores > 1 else { return }
    var mask = [UInt64](repeating: 0, count: 16)  // a cpu_set_t: 1,024 cores
    let core = index % cores
    mask[core / 64] |= 1 << UInt64(core % 64)
    _ = mask.withUnsafeBytes { sched_setaffinity(0, $0.count, $0.baseAddress!) }
  #endif
}

#if os(Linux)
  /// Linux's `sched_setaffinity` (pid 0: the calling thread), which Glibc imports only
  /// under _GNU_SOURCE.
  @_silgen_name("sched_setaffinity")
  private func sched_setaffinity(_ pid: Int32, _ size: Int, _ mask: UnsafeRawPointer) -> Int32
#endif

/// The CPU time (user and system) this process has used, in nanoseconds.
private func processCPUNanoseconds() -> Double {
  var usage = rusage()
  #if os(Linux)
    getrusage(RUSAGE_SELF.rawValue, &usage)
  #else
    getrusage(RUSAGE_SELF, &usage)
  #endif
  func nanos(_ time: timeval) -> Double { Double(time.tv_sec) * 1e9 + Double(time.tv_usec) * 1e3 }
  return nanos(usage.ru_utime) + nanos(usage.ru_stime)
}
