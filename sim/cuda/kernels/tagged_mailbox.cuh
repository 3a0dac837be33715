#pragma once
// Mailbox words that carry the step which wrote them: a value of a face and its step's tag
// in one single-copy-atomic store, so that a reader polls the values themselves. The
// writer needs no fence and no flag after its faces, and the reader no flag before them:
// one trip through L2 where a flag protocol takes three (the faces, the fence, the flag,
// then the faces again). A 64-bit word holds 32 bits of a value and a 32-bit tag; a float
// takes one word, a double two (each half of its bits with the tag, stored and loaded
// together), and a reader takes a double only when both words carry the tag.
//
// Tags are steps counted from 1 within a launch: the words are zeroed before each launch,
// so no word left over from another launch or another use of the memory holds a tag the
// reader waits for.
#include <cstdint>

namespace ws {
namespace onchip {

__device__ __forceinline__ void store_relaxed(unsigned long long* p, unsigned long long v) {
  asm volatile("st.relaxed.gpu.global.u64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
}
__device__ __forceinline__ unsigned long long load_relaxed(const unsigned long long* p) {
  unsigned long long v;
  asm volatile("ld.relaxed.gpu.global.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
  return v;
}
__device__ __forceinline__ void store_relaxed(ulonglong2* p, ulonglong2 v) {
  asm volatile("st.relaxed.gpu.global.v2.u64 [%0], {%1, %2};" ::"l"(p), "l"(v.x), "l"(v.y) : "memory");
}
__device__ __forceinline__ ulonglong2 load_relaxed(const ulonglong2* p) {
  ulonglong2 v;
  asm volatile("ld.relaxed.gpu.global.v2.u64 {%0, %1}, [%2];" : "=l"(v.x), "=l"(v.y) : "l"(p) : "memory");
  return v;
}

template <class T>
struct TaggedWord;

template <>
struct TaggedWord<float> {
  using Word = unsigned long long;
  __device__ static Word pack(float v, unsigned tag) {
    return (Word)tag << 32 | __float_as_uint(v);
  }
  __device__ static bool tagged(Word w, unsigned tag) { return (unsigned)(w >> 32) == tag; }
  __device__ static float value(Word w) { return __uint_as_float((unsigned)w); }
};

template <>
struct TaggedWord<double> {
  using Word = ulonglong2;
  __device__ static Word pack(double v, unsigned tag) {
    const unsigned long long bits = (unsigned long long)__double_as_longlong(v);
    const unsigned long long hi = (unsigned long long)tag << 32;
    return make_ulonglong2(hi | (bits & 0xffffffffull), hi | (bits >> 32));
  }
  __device__ static bool tagged(Word w, unsigned tag) {
    return (unsigned)(w.x >> 32) == tag && (unsigned)(w.y >> 32) == tag;
  }
  __device__ static double value(Word w) {
    return __longlong_as_double((long long)((w.y << 32) | (w.x & 0xffffffffull)));
  }
};

// Publishes value v of step `tag` at p.
template <class T>
__device__ __forceinline__ void publish(typename TaggedWord<T>::Word* p, T v, unsigned tag) {
  store_relaxed(p, TaggedWord<T>::pack(v, tag));
}

}  // namespace onchip
}  // namespace ws
