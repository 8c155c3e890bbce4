import JoryioCore
