import BackgroundTraceCLI

/// Runs `bgtrace` in process with `arguments`, capturing what it prints: the one way the
/// command tests run the tool.
func run(_ arguments: String...) -> (status: ExitStatus, output: String, errors: String) {
  run(arguments)
}

/// ``run(_:)-(String...)`` with the arguments in an array.
func run(_ arguments: [String]) -> (status: ExitStatus, output: String, errors: String) {
  let console = CapturingConsole()
  let status = BGTrace.run(arguments, console: console)
  return (status, console.output, console.errors)
}
