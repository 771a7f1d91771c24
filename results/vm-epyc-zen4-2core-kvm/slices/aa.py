import json,math,statistics as st,random,sys
for f in sys.argv[1:]:
    d=json.load(open(f))
    by={(r['op'],r['slice']['asked_ms']):r for r in d['runs']}
    for op in ['count','vacuum']:
        a=by[(op,0)]; b=by[(op,10)]
        ma={s['round']:s['mbps'] for s in a['scans']}; mb={s['round']:s['mbps'] for s in b['scans']}
        l=[math.log(mb[k]/ma[k]) for k in ma if k in mb]
        random.seed(1)
        bs=sorted(st.median(random.choices(l,k=len(l))) for _ in range(2000))
        print('%s %s slice %s pages / whole (%d passes): %.4f [%.4f, %.4f] n=%d'%(f.split('/')[-1],op,b['slice']['pages'],a['passes'],math.exp(st.median(l)),math.exp(bs[50]),math.exp(bs[1949]),len(l)))
    print('  floor', d['analysis']['noise']['floor'], [(c['a'],round(c['ratio'],4),c['call']) for c in d['analysis']['comparisons']])
