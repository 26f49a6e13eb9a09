// SPDX-License-Identifier: GPL-3.0-or-later
// Part of the dependency-direction probe tree (see CMakeLists.txt next to it).
int probe()
{
    return 0;
}
