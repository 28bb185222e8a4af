// The `bgtrace` command: parse, run, exit. All logic is in BackgroundTraceCLI.
import BackgroundTraceCLI

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

let status = BGTrace.run(Array(CommandLine.arguments.dropFirst()), console: StandardConsole())
exit(status.rawValue)
