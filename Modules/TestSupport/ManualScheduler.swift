internal import JoryioCore
