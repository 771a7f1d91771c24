/* read-cost.c: the kernel's copy alone, as 8.1's mdread does it (sequential 8KB read() of a file in the
 * page cache into a 16MB ring, private or SysV shared memory) and as scanbench's source = file
 * does it (pread()): the best of 5 passes, ns per page. cc -O2 read-cost.c; ./a.out FILE */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/shm.h>
#include <time.h>
#include <unistd.h>
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC_RAW,&t);return t.tv_sec+t.tv_nsec*1e-9;}
static void steal(long *st){FILE*f=fopen("/proc/stat","r");long v[10]={0};fscanf(f,"cpu %ld %ld %ld %ld %ld %ld %ld %ld",&v[0],&v[1],&v[2],&v[3],&v[4],&v[5],&v[6],&v[7]);*st=v[7];fclose(f);}
int main(int argc,char**argv){
  const char*path=argv[1]; int fd=open(path,O_RDONLY); long npages=lseek(fd,0,SEEK_END)/8192;
  size_t pool=16<<20; char *priv=aligned_alloc(4096,pool); memset(priv,0,pool);
  int id=shmget(IPC_PRIVATE,pool,IPC_CREAT|0600); char*shm=shmat(id,NULL,0); shmctl(id,IPC_RMID,NULL); memset(shm,0,pool);
  char *bufs[2]={priv,shm}; const char*names[2]={"private","shm"};
  for(int mode=0;mode<4;mode++){ char*b=bufs[mode&1]; double best=1e9; long s0,s1;
    steal(&s0);
    for(int rep=0;rep<5;rep++){ lseek(fd,0,SEEK_SET); double t0=now();
      for(long p=0;p<npages;p++){ char*dst=b+(p%2048)*8192; if(mode<2){ if(read(fd,dst,8192)!=8192) return 1;} else { if(pread(fd,dst,8192,p*8192)!=8192) return 1;} }
      double t=(now()-t0)/npages*1e9; if(t<best)best=t; }
    steal(&s1);
    printf("%s %s: %.0f ns/page (steal ticks %ld)\n", mode<2?"read":"pread", names[mode&1], best, s1-s0);}
  return 0;}
