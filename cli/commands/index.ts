/** Every command, in the order `htmls --help` lists them. */
import type { Command } from '../command';
import account from './account';
import deploy from './deploy';
import login from './login';
import logout from './logout';
import me from './me';
import share from './share';
import shareAdd from './share-add';
import shareRm from './share-rm';
import shareRmItem from './share-rm-item';
import shareSet from './share-set';
import shares from './shares';
import request from './request';
import requestRm from './request-rm';
import requestSet from './request-set';
import requests from './requests';
import send from './send';
import token from './token';
import tokens from './tokens';

export const COMMANDS = [login, logout, me, share, shares, shareSet, shareAdd, shareRmItem, shareRm, request, requests, requestSet, requestRm, send, deploy, token, tokens, account] as unknown as readonly Command[];
