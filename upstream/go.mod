module schedtrace/upstream

go 1.26
