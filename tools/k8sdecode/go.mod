module schedtrace/tools/k8sdecode

go 1.19
