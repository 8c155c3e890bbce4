internal import Foundation
internal import JoryioToolsCore

// `joryio-tools`: all logic lives in JoryioToolsCore; this only forwards the command line and output.
let output = JoryioToolsCommand.run(
    Array(CommandLine.arguments.dropFirst()),
    linkedFacts: linkedPrivacyFacts,
    productFacts: separateProductPrivacyFacts
)
FileHandle.standardOutput.write(Data(output.standardOutput.utf8))
FileHandle.standardError.write(Data(output.standardError.utf8))
exit(output.exitCode)
