"Install epigraph from settings.ini (the nbdev 2 convention)."
from configparser import ConfigParser
import setuptools, shlex

assert setuptools.__version__ >= '36.2'
config = ConfigParser(delimiters=['='])
config.read('settings.ini', encoding='utf-8')
cfg = config['DEFAULT']

requirements = shlex.split(cfg.get('requirements', ''))
dev_requirements = shlex.split(cfg.get('dev_requirements', ''))
local_llm_requirements = shlex.split(cfg.get('local_llm_requirements', ''))
embeddings_requirements = shlex.split(cfg.get('embeddings_requirements', ''))
scripts = [s.strip() for s in cfg.get('console_scripts', '').split('\n') if s.strip()]

setuptools.setup(
    name=cfg['lib_name'], version=cfg['version'], description=cfg['description'],
    author=cfg['author'], author_email=cfg['author_email'], license='Apache-2.0',
    keywords=cfg.get('keywords', '').split(), url=cfg['git_url'],
    classifiers=['Programming Language :: Python :: 3.11', 'Intended Audience :: Science/Research',
                 'License :: OSI Approved :: Apache Software License'],
    project_urls={'Source': cfg['git_url']},
    python_requires='>=' + cfg['min_python'],
    long_description=open('README.md', encoding='utf-8').read(), long_description_content_type='text/markdown',
    packages=setuptools.find_packages(include=['epigraph', 'epigraph.*']),
    include_package_data=True, zip_safe=False,
    install_requires=requirements,
    extras_require={'dev': dev_requirements, 'local-llm': local_llm_requirements,
                    'embeddings': embeddings_requirements},
    entry_points={'console_scripts': scripts, 'nbdev': [f'{cfg["lib_path"]}={cfg["lib_path"]}._modidx:d']},
)
