#!/bin/sh
# Makes the SDK's sources compile as the one CocoaPods module `Joryio` (PKG-9): every import of a
# sibling SwiftPM module (JoryioCore, JoryioKit …) is wrapped in `#if canImport(<module>)`, which is
# false in a pod, where those modules do not exist and their code is part of `Joryio` itself.
# SwiftPM builds are unaffected (the sources in git are never rewritten except by this script).
#
# Run by the podspec's prepare_command on the downloaded copy, and by `make check-pod-module` on a
# copy under .build, which then type-checks the pod's files as one module. Usage:
#   Tools/pod/single-module.sh DIR...     (rewrites every .swift file under each DIR in place)
set -eu
for dir in "$@"; do
  find "$dir" -name '*.swift' -print | while IFS= read -r file; do
    perl -pi -e 's/^((?:\@_exported )?(?:(?:public|package|internal) )?import (?:(?:struct|class|enum|protocol|func|typealias|let|var) )?(Joryio[A-Za-z]*)(?:\.\w+)?)\s*$/#if canImport($2)\n$1\n#endif\n/' "$file"
  done
done
