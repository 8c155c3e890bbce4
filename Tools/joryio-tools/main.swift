internal import Foundation
internal import JoryioBrowser
internal import JoryioToolsCore

// `joryio-tools`: all logic lives in JoryioToolsCore (and, for the commands that need JoryioUI, in
// JoryioBrowser); this only forwards the command line and output.
let arguments = Array(CommandLine.arguments.dropFirst())
let output =
    PreviewCommand.names.contains(arguments.first ?? "")
    ? PreviewCommand.run(arguments)
    : JoryioToolsCommand.run(arguments, linkedFacts: linkedPrivacyFacts, productFacts: separateProductPrivacyFacts)
FileHandle.standardOutput.write(Data(output.standardOutput.utf8))
FileHandle.standardError.write(Data(output.standardError.utf8))
exit(output.exitCode)
