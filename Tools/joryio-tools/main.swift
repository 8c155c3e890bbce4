internal import Foundation
internal import JoryioBrowser
internal import JoryioToolsCore

// `joryio-tools`: all logic lives in JoryioToolsCore (and, for the commands that need JoryioUI, in
// JoryioBrowser); this only forwards the command line and output.
let arguments = Array(CommandLine.arguments.dropFirst())
let output = JoryioToolsCommand.run(
    arguments,
    linkedFacts: linkedPrivacyFacts,
    productFacts: separateProductPrivacyFacts,
    more: PreviewCommand.commands
)
FileHandle.standardOutput.write(Data(output.standardOutput.utf8))
FileHandle.standardError.write(Data(output.standardError.utf8))
exit(output.exitCode)
