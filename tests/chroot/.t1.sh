set -e
cmake -S . -B build-$1 -DOC_WERROR=ON >/dev/null
cmake --build build-$1 -j2 >/dev/null
ctest --test-dir build-$1 --output-on-failure --timeout 600 -R "^(cluster\.start|cluster\.stop|$2)$"
