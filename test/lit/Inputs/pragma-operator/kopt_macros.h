// A project's helper for pragmas: the pragma is a macro argument, made a string.
#pragma once
#define KOPT(...) _Pragma(#__VA_ARGS__)
